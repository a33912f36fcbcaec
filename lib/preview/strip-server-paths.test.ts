import { describe, expect, it } from "vitest";
import { stripServerPaths } from "./strip-server-paths";

describe("stripServerPaths", () => {
  const root = "/srv/patchwork";

  it("makes the builder's own paths relative", () => {
    expect(
      stripServerPaths("Can't resolve '/srv/patchwork/src/x.css' in /srv/patchwork", root),
    ).toBe("Can't resolve 'src/x.css' in .");
  });

  it("keeps only the node_modules part of other installs' paths", () => {
    expect(
      stripServerPaths(
        "Cannot apply unknown utility class `bg-nope` (/opt/other/node_modules/tailwindcss/index.css)",
        root,
      ),
    ).toBe("Cannot apply unknown utility class `bg-nope` (node_modules/tailwindcss/index.css)");
  });

  it("leaves text without server paths alone", () => {
    expect(stripServerPaths("src/App.tsx: Unexpected token", root)).toBe(
      "src/App.tsx: Unexpected token",
    );
  });
});
