import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DirectoryFileSource, symbolicLinkOnPath } from "./directory-file-source";

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "patch-source-")));
const outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "patch-outside-")));
afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(outside, { recursive: true, force: true });
});
fs.mkdirSync(path.join(root, "src/nested"), { recursive: true });
fs.mkdirSync(path.join(root, "node_modules/pkg"), { recursive: true });
fs.writeFileSync(path.join(root, "src/app.ts"), "caf\u00e9\n");
fs.writeFileSync(path.join(root, "src/nested/b.ts"), "b\n");
fs.writeFileSync(path.join(root, "node_modules/pkg/index.js"), "x\n");
fs.writeFileSync(path.join(root, "image.bin"), Buffer.from([0x89, 0x50, 0x00, 0x47]));
fs.writeFileSync(path.join(root, "latin1.txt"), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
fs.writeFileSync(path.join(outside, "secret.txt"), "secret\n");
fs.symlinkSync(path.join(outside, "secret.txt"), path.join(root, "secret-link.txt"));
fs.symlinkSync(outside, path.join(root, "outside-link"));

describe("DirectoryFileSource", () => {
  const source = new DirectoryFileSource(root);

  it("reads UTF-8 text and reports other files as existing but not text", () => {
    expect(source.get("src/app.ts")).toBe("caf\u00e9\n");
    expect([source.has("image.bin"), source.get("image.bin")]).toEqual([true, undefined]);
    expect([source.has("latin1.txt"), source.get("latin1.txt")]).toEqual([true, undefined]);
    expect([source.has("missing.ts"), source.get("missing.ts")]).toEqual([false, undefined]);
  });

  it("never reads through a symbolic link", () => {
    expect(source.has("secret-link.txt")).toBe(true);
    expect(source.get("secret-link.txt")).toBeUndefined();
  });

  it("tells directories apart and lists files without links, .git or node_modules", () => {
    expect([
      source.isDirectory("src"),
      source.isDirectory("src/app.ts"),
      source.has("src"),
    ]).toEqual([true, false, false]);
    expect([...source.keys()].sort()).toEqual([
      "image.bin",
      "latin1.txt",
      "src/app.ts",
      "src/nested/b.ts",
    ]);
  });

  it("finds the first link on a path", () => {
    expect(symbolicLinkOnPath(root, "outside-link/secret.txt")).toBe("outside-link");
    expect(symbolicLinkOnPath(root, "secret-link.txt")).toBe("secret-link.txt");
    expect(symbolicLinkOnPath(root, "src/new/file.ts")).toBeNull();
  });
});
