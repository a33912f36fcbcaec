import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runCli } from "./cli";

const temporary: string[] = [];
afterEach(() => {
  for (const folder of temporary.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
});

function folderWith(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "patch-cli-"));
  temporary.push(root);
  for (const [relative, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
    fs.writeFileSync(path.join(root, relative), text);
  }
  return root;
}

function patchFile(text: string): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "patch-file-"));
  temporary.push(folder);
  fs.writeFileSync(path.join(folder, "change.diff"), text);
  return path.join(folder, "change.diff");
}

function cli(argv: string[], stdin = "") {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const exitCode = runCli(argv, {
    stdout: (text) => stdout.push(text),
    stderr: (text) => stderr.push(text),
    stdin: () => stdin,
  });
  return { exitCode, stdout: stdout.join(""), stderr: stderr.join("") };
}

const update =
  "--- a/src/app.ts\n+++ b/src/app.ts\n@@ -1,2 +1,2 @@\n const a = 1;\n-const b = 2;\n+const b = 3;\n";

describe("patch CLI", () => {
  it("applies a patch in place, printing the result and exiting 0", () => {
    const root = folderWith({ "src/app.ts": "const a = 1;\r\nconst b = 2;\r\n" });
    const run = cli(["--dir", root, patchFile(update)]);
    expect(run.exitCode).toBe(0);
    const printed = JSON.parse(run.stdout);
    expect(printed).toMatchObject({
      ok: true,
      dry_run: false,
      written: [{ path: "src/app.ts", removed: false }],
    });
    expect(printed.changes).toEqual([
      { path: "src/app.ts", op: "update", additions: 1, deletions: 1 },
    ]);
    expect(fs.readFileSync(path.join(root, "src/app.ts"), "utf8")).toBe(
      "const a = 1;\r\nconst b = 3;\r\n",
    );
  });

  it("changes nothing on a dry run, and reads the patch from standard input", () => {
    const root = folderWith({ "src/app.ts": "const a = 1;\nconst b = 2;\n" });
    const run = cli(["--dir", root, "-", "--dry-run"], update);
    expect(run.exitCode).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: true, dry_run: true, written: [] });
    expect(fs.readFileSync(path.join(root, "src/app.ts"), "utf8")).toBe(
      "const a = 1;\nconst b = 2;\n",
    );
  });

  it("exits 1 with the failure envelope, touching nothing", () => {
    const root = folderWith({ "src/app.ts": "const a = 1;\nconst b = 5;\n", "keep.txt": "k\n" });
    const patch = `*** Begin Patch\n*** Add File: new.txt\n+n\n*** Delete File: keep.txt\n*** Update File: src/app.ts\n@@\n-const b = 2;\n+const b = 3;\n*** End Patch\n`;
    const run = cli(["--dir", root, patchFile(patch)]);
    expect(run.exitCode).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: false, code: "PATCH_CONTEXT_NOT_FOUND" });
    expect(fs.readdirSync(root).sort()).toEqual(["keep.txt", "src"]);
  });

  it("moves files, creating directories, keeping modes and removing emptied ones", () => {
    const root = folderWith({ "old/run.sh": "echo hi\n", "other.txt": "x\n" });
    fs.chmodSync(path.join(root, "old/run.sh"), 0o755);
    const patch =
      "*** Begin Patch\n*** Update File: old/run.sh\n@@\n-echo hi\n+echo hello\n*** Delete File: other.txt\n*** End Patch\n";
    expect(cli(["--dir", root, patchFile(patch)]).exitCode).toBe(0);
    expect(fs.statSync(path.join(root, "old/run.sh")).mode & 0o777).toBe(0o755);
    const move =
      "*** Begin Patch\n*** Update File: old/run.sh\n*** Move to: bin/tools/run.sh\n*** End Patch\n";
    expect(cli(["--dir", root, patchFile(move)]).exitCode).toBe(0);
    expect(fs.readdirSync(root)).toEqual(["bin"]);
    expect(fs.readFileSync(path.join(root, "bin/tools/run.sh"), "utf8")).toBe("echo hello\n");
  });

  it("refuses paths through symbolic links, inside or out, before reading", () => {
    const outside = folderWith({ "secret.txt": "top secret\n" });
    const root = folderWith({ "src/app.ts": "x\n" });
    fs.symlinkSync(outside, path.join(root, "linked"));
    fs.symlinkSync(path.join(outside, "secret.txt"), path.join(root, "secret.txt"));
    fs.symlinkSync(path.join(root, "src"), path.join(root, "alias"));
    for (const target of ["linked/secret.txt", "secret.txt", "alias/app.ts", "linked/new.txt"]) {
      const patch = `--- a/${target}\n+++ b/${target}\n@@ -1 +1 @@\n-top secret\n+owned\n`;
      const run = cli(["--dir", root, patchFile(patch)]);
      expect(run.exitCode).toBe(1);
      const printed = JSON.parse(run.stdout);
      expect(printed.code).toBe("PATCH_PATH_POLICY_VIOLATION");
      expect(JSON.stringify(printed)).not.toContain("top secret\n");
    }
    const add = "*** Begin Patch\n*** Add File: linked/new.txt\n+x\n*** End Patch\n";
    expect(cli(["--dir", root, patchFile(add)]).exitCode).toBe(1);
    expect(fs.readdirSync(outside)).toEqual(["secret.txt"]);
    expect(fs.readFileSync(path.join(outside, "secret.txt"), "utf8")).toBe("top secret\n");
  });

  it("refuses hostile paths and binary targets", () => {
    const root = folderWith({ "logo.png": "\u0000PNG" });
    const hostile = cli([
      "--dir",
      root,
      patchFile("*** Begin Patch\n*** Add File: ../escape.txt\n+x\n*** End Patch\n"),
    ]);
    expect(JSON.parse(hostile.stdout).code).toBe("PATCH_PATH_POLICY_VIOLATION");
    expect(fs.existsSync(path.join(root, "..", "escape.txt"))).toBe(false);
    const binary = cli([
      "--dir",
      root,
      patchFile("--- a/logo.png\n+++ b/logo.png\n@@ -1 +1 @@\n-x\n+y\n"),
    ]);
    expect(JSON.parse(binary.stdout).code).toBe("PATCH_FILE_NOT_TEXT");
  });

  it.each([
    [[], "--dir <folder> is required"],
    [["--dir", "/nonexistent-folder-for-patch-test", "x.diff"], "no such file or directory"],
    [["--dir", ".", "--force", "x.diff"], "unknown option --force"],
    [["--dir", "."], "a patch file (or - for standard input) is required"],
  ])("exits 2 on a usage error: %j", (argv, message) => {
    const run = cli(argv);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stderr).toContain("usage: npm run patch");
  });

  it("resolves relative paths from where the caller ran npm", () => {
    const root = folderWith({ "src/app.ts": "const a = 1;\nconst b = 2;\n" });
    const diff = patchFile(update);
    const saved = process.env.INIT_CWD;
    process.env.INIT_CWD = path.dirname(root);
    try {
      const run = cli(["--dir", path.basename(root), path.relative(path.dirname(root), diff)]);
      expect(run.exitCode).toBe(0);
    } finally {
      if (saved === undefined) delete process.env.INIT_CWD;
      else process.env.INIT_CWD = saved;
    }
    expect(fs.readFileSync(path.join(root, "src/app.ts"), "utf8")).toBe(
      "const a = 1;\nconst b = 3;\n",
    );
  });

  it("runs as `npm run patch`", () => {
    const root = folderWith({ "src/app.ts": "const a = 1;\nconst b = 2;\n" });
    const output = execFileSync(
      "npm",
      ["run", "--silent", "patch", "--", "--dir", root, patchFile(update)],
      {
        cwd: path.resolve(import.meta.dirname, "../.."),
        encoding: "utf8",
      },
    );
    expect(JSON.parse(output).ok).toBe(true);
    expect(fs.readFileSync(path.join(root, "src/app.ts"), "utf8")).toBe(
      "const a = 1;\nconst b = 3;\n",
    );
  });
});
