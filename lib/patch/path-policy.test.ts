import { describe, expect, it } from "vitest";
import { normalizeWorkspacePath } from "./path-policy";

describe("normalizeWorkspacePath", () => {
  it.each([
    ["src/App.tsx", "src/App.tsx"],
    ["./src/App.tsx", "src/App.tsx"],
    ["src//components/./Button.tsx", "src/components/Button.tsx"],
    ["app/[...slug]/page.tsx", "app/[...slug]/page.tsx"],
    ["café/naïve ✅.md", "café/naïve ✅.md"],
    [".env.example", ".env.example"],
    [".github/workflows/ci.yml", ".github/workflows/ci.yml"],
    ["a/.gitignore", "a/.gitignore"],
    ["with space/file name.ts", "with space/file name.ts"],
  ])("accepts %j as %j", (path, normalised) => {
    expect(normalizeWorkspacePath(path)).toEqual({ ok: true, path: normalised });
  });

  // Every entry is a way a patch could reach outside the workspace or alias another path.
  const hostilePaths = [
    "/etc/passwd",
    "//server/share/file",
    "../outside.txt",
    "src/../../outside.txt",
    "src/..",
    "a/b/../c",
    "..",
    "...",
    ". .",
    ".. /x",
    "src/..\u0020/x",
    "C:\\Windows\\win.ini",
    "C:/Windows/win.ini",
    "c:relative.txt",
    "\\\\server\\share",
    "src\\..\\..\\x",
    "..\\x",
    "file\u0000.txt",
    "src/\u0000",
    "line\nbreak.txt",
    "tab\there",
    "~/.ssh/authorized_keys",
    "~",
    "%2e%2e/secret",
    "%2E%2E%2Fsecret",
    "src%5c..%5cx",
    "\uff0e\uff0e/x",
    "\uff0e\uff0e\uff0fx",
    "src\u2215..\u2215x",
    "\u2025/x",
    "\u2026/x",
    "evil\u202egnp.ts",
    "zero\u200bwidth.ts",
    ".git/hooks/pre-commit",
    "sub/.GIT/config",
    "GIT~1/config",
    "file.txt::$DATA",
    "file:///etc/passwd",
    "src/",
    "",
    ".",
    "./",
    "NUL",
    "src/con.ts",
    "trailing.",
    "x".repeat(5000),
    `${"y".repeat(300)}/z`,
    // What the store refused and the engine accepted, or neither refused (issue 16, defect 5).
    " leading-space.ts",
    "src/ leading/x.ts",
    `${"a/".repeat(256)}x`,
    "x".repeat(513),
    `${"é".repeat(128)}.ts`,
    ".git/config",
    "src/\u202eevil.ts",
    "soft\u00adhyphen.ts",
    "word\u2028separator.ts",
    "\uff0e\uff0e\uff0f",
    "private\ue000use.ts",
  ];

  it(`refuses all ${hostilePaths.length} hostile paths`, () => {
    expect(hostilePaths.length).toBeGreaterThanOrEqual(20);
    const accepted = hostilePaths.filter((path) => normalizeWorkspacePath(path).ok);
    expect(accepted).toEqual([]);
  });

  it("keeps the store's length limit and counts NAME_MAX in bytes", () => {
    expect(normalizeWorkspacePath(`${"d".repeat(100)}/`.repeat(5) + "x".repeat(7)).ok).toBe(true);
    expect(normalizeWorkspacePath("x".repeat(513))).toEqual({
      ok: false,
      reason: "it is longer than 512 characters",
    });
    expect(normalizeWorkspacePath(`${"é".repeat(126)}.ts`).ok).toBe(true);
    expect(normalizeWorkspacePath(`${"é".repeat(127)}.ts`)).toEqual({
      ok: false,
      reason: "a segment is longer than 255 bytes",
    });
  });

  it("normalises to NFC, so decomposed and composed twins name one file", () => {
    const composed = "caf\u00e9/index.ts";
    const decomposed = "cafe\u0301/index.ts";
    expect(normalizeWorkspacePath(decomposed)).toEqual({ ok: true, path: composed });
    expect(normalizeWorkspacePath(composed)).toEqual({ ok: true, path: composed });
  });

  it("says why a path is refused", () => {
    expect(normalizeWorkspacePath("../x")).toEqual({
      ok: false,
      reason: "it climbs out with '..'",
    });
    expect(normalizeWorkspacePath("/x")).toEqual({ ok: false, reason: "it is absolute" });
  });
});
