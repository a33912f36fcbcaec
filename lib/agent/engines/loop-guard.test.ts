import { describe, expect, it } from "vitest";
import { LoopGuard } from "./loop-guard";

describe("LoopGuard", () => {
  it("runs two identical calls, warns on the third, stops on the fourth", () => {
    const guard = new LoopGuard();
    const call = { path: "src/App.tsx", start_line: 1 };
    expect(guard.check("read_file_range", call)).toBe("run");
    expect(guard.check("read_file_range", { start_line: 1, path: "src/App.tsx" })).toBe("run");
    expect(guard.check("read_file_range", call)).toBe("warn");
    expect(guard.check("read_file_range", call)).toBe("stop");
  });

  it("starts over when the call changes", () => {
    const guard = new LoopGuard();
    expect(guard.check("read_file_range", { path: "a" })).toBe("run");
    expect(guard.check("read_file_range", { path: "a" })).toBe("run");
    expect(guard.check("read_file_range", { path: "b" })).toBe("run");
    expect(guard.check("read_file_range", { path: "a" })).toBe("run");
    expect(guard.check("apply_patch", { patch: "x" })).toBe("run");
  });
});
