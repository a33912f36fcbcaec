import { describe, expect, it } from "vitest";
import { findLocalAssets } from "./index-html";

describe("findLocalAssets", () => {
  it("finds local module scripts and stylesheets in document order, with their lines", () => {
    const html = [
      "<!doctype html>",
      '<link rel="stylesheet" href="./src/base.css">',
      '<link rel="stylesheet" href="https://fonts.example.com/inter.css">',
      '<!-- <script type="module" src="/src/old.tsx"></script> -->',
      '<script src="/legacy.js"></script>',
      "<script type='module' src='/src/main.tsx?v=2'></script>",
      "<script type=module src=//cdn.example.com/x.js></script>",
    ].join("\n");
    expect(findLocalAssets(html).map(({ kind, path, line }) => ({ kind, path, line }))).toEqual([
      { kind: "stylesheet", path: "src/base.css", line: 2 },
      { kind: "module-script", path: "src/main.tsx", line: 6 },
    ]);
  });

  it("gives offsets that cover the whole tag", () => {
    const html = '<body><script type="module" src="/src/main.tsx"></script></body>';
    const [asset] = findLocalAssets(html);
    expect(html.slice(asset.start, asset.end)).toBe(
      '<script type="module" src="/src/main.tsx"></script>',
    );
  });
});
