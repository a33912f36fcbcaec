import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { starterTemplateFiles } from "@/lib/workspace/starter-template";
import { createPreviewBuilder } from "./build-preview";
import { locateBundlePosition, locateFirstAppFrame } from "./locate-runtime-error";

const builder = createPreviewBuilder({ builderRoot: path.resolve(import.meta.dirname, "../..") });
afterAll(() => builder.dispose());

const throwingApp = [
  'import { useState } from "react";',
  "",
  "export function App() {",
  "  const [count] = useState(0);",
  '  if (count === 0) throw new Error("boom from the render");',
  "  return <h1>{count}</h1>;",
  "}",
  "",
].join("\n");

/** The one-based line and column of a text in the bundle, as a stack frame would give it. */
function positionOf(bundle: string, text: string) {
  const offset = bundle.indexOf(text);
  const before = bundle.slice(0, offset).split("\n");
  return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
}

describe("locating runtime errors", () => {
  it("maps a bundle position back to the app's file and line through the source map", async () => {
    const input = {
      key: "throwing",
      files: new Map(Object.entries({ ...starterTemplateFiles, "src/App.tsx": throwingApp })),
    };
    const build = await builder.build(input);
    expect(build.ok).toBe(true);
    // Made on demand, for this very bundle (same code), and kept with the build.
    const map = await builder.sourceMap(input, build);
    expect(map).not.toBeNull();
    expect(await builder.sourceMap(input, build)).toBe(map);
    const at = positionOf(build.js as string, '"boom from the render"');
    const location = locateBundlePosition(map, at);
    expect(location).toMatchObject({ file: "src/App.tsx", line: 5 });

    // A frame in React itself is skipped for the first one in the app.
    const inReact = positionOf(build.js as string, "Minified React error");
    expect(locateBundlePosition(map, inReact)).toBeNull();
    expect(locateFirstAppFrame(map, [inReact, at])).toMatchObject({
      file: "src/App.tsx",
      line: 5,
    });
    expect(locateFirstAppFrame(map, [{ line: 99_999, column: 1 }])).toBeNull();
  });
});
