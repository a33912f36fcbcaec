import { describe, expect, it } from "vitest";
import { applyPatch } from "./apply-patch";

/** The probe's case: hunks of `x` lines around a removed line the file never holds. */
function pathologicalPatch(hunks: number, body: string[]): string {
  const lines = ["--- a/big.txt", "+++ b/big.txt"];
  for (let hunk = 1; hunk <= hunks; hunk += 1) {
    const start = ((hunk * 7919) % 100_000) + 1;
    lines.push(`@@ -${start},7 +${start},7 @@`, ...body);
  }
  return `${lines.join("\n")}\n`;
}

const bigFile = "x\n".repeat(100_000);
const files = () => new Map([["big.txt", bigFile]]);

describe("the search is bounded", () => {
  it("refuses 11,000 hunks that match nowhere (a 512 KiB patch) instead of searching for minutes", () => {
    const patch = pathologicalPatch(11_000, [" x", " x", " x", "-y", "+q", " x", " x", " x"]);
    expect(patch.length).toBeGreaterThan(512 * 1024);
    const result = applyPatch({ files: files(), patch });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.code).toBe("PATCH_CONTEXT_NOT_FOUND");
  });

  it("answers PATCH_TOO_COMPLEX, changing nothing, when placing would take too much searching", () => {
    // The removed line is everywhere and the context never quite fits: every `x` is a candidate.
    const patch = pathologicalPatch(1_000, [" x", " x", " x", "-x", "+q", " x", " z", " w"]);
    const result = applyPatch({ files: files(), patch });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.code).toBe("PATCH_TOO_COMPLEX");
    expect(result.summary).toContain("fewer hunks");
  });

  it("still places a hunk whose context lost a line, near its rare removed line", () => {
    const file = `${"x\n".repeat(50_000)}target\n${"x\n".repeat(50_000)}`;
    const patch =
      "--- a/big.txt\n+++ b/big.txt\n@@ -50000,5 +50000,5 @@\n x\n x\n-target\n+hit\n x\n x\n x\n";
    const result = applyPatch({ files: new Map([["big.txt", file]]), patch });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.updates.get("big.txt")).toContain("x\nhit\nx");
  });
});

describe("a patch of many failing hunks", () => {
  it("lists the first 20 failures and counts the rest, so the answer stays small", () => {
    const patch = pathologicalPatch(300, [" x", " x", " x", "-y", "+q", " x", " x", " x"]);
    const result = applyPatch({ files: files(), patch });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.failures).toHaveLength(20);
    expect(result.omitted_failures).toBe(280);
    expect(result.summary).toMatch(/^300 problems/);
    expect(JSON.stringify(result).length).toBeLessThan(64 * 1024);
  });
});
