import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeUpdates } from "./write-updates";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
});

function folder(files: Record<string, string>): string {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "patch-write-")));
  folders.push(root);
  for (const [relative, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
    fs.writeFileSync(path.join(root, relative), text);
  }
  return root;
}

const tree = (root: string) => fs.readdirSync(root, { recursive: true }).map(String).sort();

describe("writeUpdates", () => {
  it("writes, creates and deletes, leaving no temporary files", () => {
    const root = folder({ "a.txt": "a\n", "dir/b.txt": "b\n" });
    writeUpdates(
      root,
      new Map([
        ["a.txt", "A\n"],
        ["dir/b.txt", null],
        ["new/deep/c.txt", "c\n"],
      ]),
    );
    expect(tree(root)).toEqual(["a.txt", "new", "new/deep", "new/deep/c.txt"]);
    expect(fs.readFileSync(path.join(root, "a.txt"), "utf8")).toBe("A\n");
  });

  it("restores every file when a later write fails", () => {
    const root = folder({ "a.txt": "a\n", "b.txt": "b\n" });
    // A directory where a file must go makes the rename fail after a.txt was replaced.
    fs.mkdirSync(path.join(root, "c.txt"));
    fs.writeFileSync(path.join(root, "c.txt", "inside"), "x");
    expect(() =>
      writeUpdates(
        root,
        new Map([
          ["a.txt", "A\n"],
          ["b.txt", null],
          ["c.txt", "C\n"],
        ]),
      ),
    ).toThrow();
    expect(fs.readFileSync(path.join(root, "a.txt"), "utf8")).toBe("a\n");
    expect(fs.readFileSync(path.join(root, "b.txt"), "utf8")).toBe("b\n");
    expect(tree(root)).toEqual(["a.txt", "b.txt", "c.txt", "c.txt/inside"]);
  });

  it("refuses to write through a symbolic link", () => {
    const outside = folder({ "target.txt": "t\n" });
    const root = folder({});
    fs.symlinkSync(outside, path.join(root, "link"));
    expect(() => writeUpdates(root, new Map([["link/target.txt", "owned\n"]]))).toThrow(
      /symbolic link link/,
    );
    expect(fs.readFileSync(path.join(outside, "target.txt"), "utf8")).toBe("t\n");
  });

  it("leaves nothing behind when a later write fails: no file, no temp file, no new folder", () => {
    const root = folder({ "keep.txt": "kept\n" });
    // 300 bytes: no file system takes such a name, so this write fails after the first.
    const updates = new Map([
      ["newdir/deep/x.txt", "x\n"],
      [`other/${"n".repeat(300)}.txt`, "y\n"],
    ]);
    expect(() => writeUpdates(root, updates)).toThrow(/ENAMETOOLONG|name too long/i);
    expect(tree(root)).toEqual(["keep.txt"]);
  });

  it("writes names right at NAME_MAX: the temporary file's name does not grow with the target's", () => {
    const root = folder({ "keep.txt": "kept\n" });
    const longName = `${"n".repeat(251)}.txt`;
    writeUpdates(root, new Map([[`newdir/deep/${longName}`, "long\n"]]));
    expect(fs.readFileSync(path.join(root, "newdir", "deep", longName), "utf8")).toBe("long\n");
    expect(tree(root)).toEqual(["keep.txt", "newdir", "newdir/deep", `newdir/deep/${longName}`]);
  });
});
