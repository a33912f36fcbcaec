import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { importedLucideNames, lucideSubsetModule } from "./lucide-icon-imports";

describe("importedLucideNames", () => {
  it("collects named imports and re-exports, ignoring aliases and type modifiers", () => {
    const names = importedLucideNames([
      'import { Rocket, Zap as Bolt, type LucideIcon } from "lucide-react";',
      "export { Star } from 'lucide-react';",
      'import { useState } from "react";',
    ]);
    expect(names && [...names].sort()).toEqual(["LucideIcon", "Rocket", "Star", "Zap"]);
  });

  it("gives up (null) on imports it cannot narrow", () => {
    expect(importedLucideNames(['import * as Icons from "lucide-react";'])).toBeNull();
    expect(importedLucideNames(['const icons = await import("lucide-react");'])).toBeNull();
  });
});

describe("lucideSubsetModule", () => {
  const require = createRequire(import.meta.url);
  const cjsEntry = require.resolve("lucide-react");
  const barrel = path.join(path.dirname(cjsEntry), "..", "esm", "lucide-react.mjs");

  it("re-exports just the requested icons from their own modules", () => {
    expect(lucideSubsetModule(barrel, ["RocketIcon", "createLucideIcon", "NoSuchIcon"])).toBe(
      'export { default as RocketIcon } from "./icons/rocket.mjs";\n' +
        'export { default as createLucideIcon } from "./createLucideIcon.mjs";\n',
    );
  });

  it("refuses the icons namespace, which only the full entry has", () => {
    expect(lucideSubsetModule(barrel, ["icons"])).toBeNull();
  });
});
