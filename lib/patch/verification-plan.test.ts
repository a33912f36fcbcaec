import { describe, expect, it } from "vitest";
import { planVerification } from "./verification-plan";

describe("planVerification", () => {
  it("lists files, vanished paths, fitting checks and loose matches", () => {
    const updates = new Map<string, string | null>([
      ["src/cart.ts", "x"],
      ["src/config.json", "{}"],
      ["src/old.ts", null],
      ["src/new.ts", "y"],
    ]);
    const existing = new Set(["src/cart.test.ts", "src/__tests__/new.test.tsx"]);
    const loose = [
      {
        path: "src/cart.ts",
        hunk_index: 1,
        start_line: 4,
        end_line: 9,
        tolerance: "surrounding-whitespace" as const,
      },
    ];
    const plan = planVerification(
      [
        { path: "src/cart.ts", op: "update", additions: 1, deletions: 1 },
        { path: "src/new.ts", op: "rename", from_path: "src/old.ts", additions: 0, deletions: 0 },
      ],
      updates,
      loose,
      (path) => existing.has(path),
    );
    expect(plan.files_to_check).toEqual(["src/cart.ts", "src/config.json", "src/new.ts"]);
    expect(plan.removed_paths).toEqual(["src/old.ts"]);
    expect(plan.checks.map((check) => [check.kind, check.paths])).toEqual([
      ["typecheck", ["src/cart.ts", "src/new.ts", "src/old.ts"]],
      ["bundle", ["src/cart.ts", "src/new.ts", "src/old.ts"]],
      ["parse_json", ["src/config.json"]],
      ["run_tests", ["src/cart.test.ts", "src/__tests__/new.test.tsx"]],
      ["find_references", ["src/old.ts"]],
    ]);
    expect(plan.review).toEqual(loose);
  });

  it("suggests no checks for a plain text change", () => {
    const plan = planVerification([], new Map([["notes.md", "x"]]), [], () => false);
    expect(plan.checks).toEqual([]);
    expect(plan.files_to_check).toEqual(["notes.md"]);
  });
});
