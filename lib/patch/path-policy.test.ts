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
    // NFD ("e" + combining acute) and NFC name one file: the NFC form.
    ["cafe\u0301.md", "caf\u00e9.md"],
    [`${"n".repeat(251)}.txt`, `${"n".repeat(251)}.txt`],
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
    "x".repeat(513),
    `${"y".repeat(300)}/z`,
    // 86 three-byte characters: 258 bytes, more than NAME_MAX, in fewer than 255 characters.
    `${"日".repeat(86)}.ts`,
    " leading-space.ts",
    "src/ leading.ts",
    "\uff0e\uff0e\uff0f\uff0e\uff0e\uff0fetc",
    ".git/config",
    "a/\u202etxt.exe",
  ];

  it(`refuses all ${hostilePaths.length} hostile paths`, () => {
    expect(hostilePaths.length).toBeGreaterThanOrEqual(20);
    const accepted = hostilePaths.filter((path) => normalizeWorkspacePath(path).ok);
    expect(accepted).toEqual([]);
  });

  it("says why a path is refused", () => {
    expect(normalizeWorkspacePath("../x")).toEqual({
      ok: false,
      reason: "it climbs out with '..'",
    });
    expect(normalizeWorkspacePath("/x")).toEqual({ ok: false, reason: "it is absolute" });
  });
});
