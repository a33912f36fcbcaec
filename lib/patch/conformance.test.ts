/**
 * The openai/codex apply_patch scenarios (fixtures/codex-apply-patch, Apache-2.0, see its README)
 * judged by our contract: every case through the pure function and through the CLI on a real
 * folder, comparing the whole final tree — files and directories — byte for byte.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { applyPatch } from "./apply-patch";
import { runCli } from "./cli";

const suite = path.join(import.meta.dirname, "fixtures", "codex-apply-patch");
const cases = fs
  .readdirSync(suite)
  .filter((name) => name.startsWith("case-"))
  .sort();
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "patch-conformance-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

interface Tree {
  files: Map<string, string>;
  directories: Set<string>;
}

function readTree(root: string): Tree {
  const tree: Tree = { files: new Map(), directories: new Set() };
  if (!fs.existsSync(root)) return tree;
  const walk = (relative: string) => {
    for (const entry of fs.readdirSync(path.join(root, relative), { withFileTypes: true })) {
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        tree.directories.add(child);
        walk(child);
      } else tree.files.set(child, fs.readFileSync(path.join(root, child), "utf8"));
    }
  };
  walk("");
  return tree;
}

function sorted(tree: Tree) {
  return {
    files: Object.fromEntries([...tree.files].sort()),
    directories: [...tree.directories].sort(),
  };
}

describe("codex apply_patch conformance", () => {
  it("has all 23 cases", () => {
    expect(cases).toHaveLength(23);
  });

  describe.each(cases)("%s", (name) => {
    const folder = path.join(suite, name);
    const expectation = fs.readFileSync(path.join(folder, "expect"), "utf8").trim();
    const patch = fs.readFileSync(path.join(folder, "patch.diff"), "utf8");
    const codeFile = path.join(folder, "code");
    const code = fs.existsSync(codeFile) ? fs.readFileSync(codeFile, "utf8").trim() : null;
    // A case without before/ starts from an empty folder (git keeps no empty folders).
    const before = readTree(path.join(folder, "before"));
    const after = expectation === "apply" ? readTree(path.join(folder, "after")) : before;

    it(`${expectation}s through the pure function`, () => {
      const result = applyPatch({ files: before.files, patch });
      expect(result.ok).toBe(expectation === "apply");
      if (!result.ok) {
        if (code) expect(result.code).toBe(code);
        expect(result.summary).toMatch(/nothing was changed/);
        return;
      }
      const files = new Map(before.files);
      for (const [relative, text] of result.updates) {
        if (text === null) files.delete(relative);
        else files.set(relative, text);
      }
      expect(Object.fromEntries([...files].sort())).toEqual(
        Object.fromEntries([...after.files].sort()),
      );
    });

    it(`${expectation}s through the CLI on a folder`, () => {
      const root = path.join(scratch, name);
      fs.mkdirSync(root, { recursive: true });
      if (fs.existsSync(path.join(folder, "before")))
        fs.cpSync(path.join(folder, "before"), root, { recursive: true });
      const output: string[] = [];
      const exitCode = runCli(["--dir", root, path.join(folder, "patch.diff")], {
        stdout: (text) => output.push(text),
        stderr: (text) => output.push(text),
        stdin: () => "",
      });
      expect(exitCode).toBe(expectation === "apply" ? 0 : 1);
      const printed = JSON.parse(output.join(""));
      expect(printed.ok).toBe(expectation === "apply");
      if (code) expect(printed.code).toBe(code);
      expect(sorted(readTree(root))).toEqual(sorted(after));
    });
  });
});
