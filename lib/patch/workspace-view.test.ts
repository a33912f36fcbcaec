import { describe, expect, it } from "vitest";
import { WorkspaceView } from "./workspace-view";

function sourceOf(entries: Record<string, string | undefined>) {
  const map = new Map(Object.entries(entries));
  let keyCalls = 0;
  return {
    source: {
      get: (path: string) => map.get(path),
      has: (path: string) => map.has(path),
      keys: () => {
        keyCalls += 1;
        return map.keys();
      },
    },
    keyCalls: () => keyCalls,
  };
}

describe("WorkspaceView", () => {
  it("layers pending writes and removals over the source without touching it", () => {
    const { source } = sourceOf({ "a.ts": "a", "b.ts": "b" });
    const view = new WorkspaceView(source);
    view.write("c.ts", "c");
    view.remove("a.ts");
    expect(view.exists("a.ts")).toBe(false);
    expect(view.read("c.ts")).toEqual({ kind: "text", text: "c" });
    expect(source.get("a.ts")).toBe("a");
  });

  it("tells a file that is not text from a missing one", () => {
    const { source } = sourceOf({ "logo.png": undefined });
    const view = new WorkspaceView(source);
    expect(view.read("logo.png")).toEqual({ kind: "not-text" });
    expect(view.read("nope.png")).toEqual({ kind: "missing" });
  });

  it("reads keys once, only to tell directories apart", () => {
    const tracked = sourceOf({ "src/a.ts": "a" });
    const view = new WorkspaceView(tracked.source);
    view.read("src/a.ts");
    expect(tracked.keyCalls()).toBe(0);
    expect(view.isDirectory("src")).toBe(true);
    expect(view.isDirectory("sr")).toBe(false);
    expect(tracked.keyCalls()).toBe(1);
    view.remove("src/a.ts");
    expect(view.isDirectory("src")).toBe(false);
    view.write("lib/x/y.ts", "y");
    expect(view.isDirectory("lib/x")).toBe(true);
  });

  it("finds a file standing where a directory would be", () => {
    const { source } = sourceOf({ "src/App.tsx": "x" });
    expect(new WorkspaceView(source).fileAncestor("src/App.tsx/inner.ts")).toBe("src/App.tsx");
    expect(new WorkspaceView(source).fileAncestor("src/new/inner.ts")).toBeNull();
  });

  it("suggests paths that differ in case or directory", () => {
    const { source } = sourceOf({ "src/App.tsx": "x", "lib/app.tsx": "y", "other.ts": "z" });
    expect(new WorkspaceView(source).similarPaths("src/app.tsx")).toEqual([
      "src/App.tsx",
      "lib/app.tsx",
    ]);
  });

  it("reports only paths that really changed", () => {
    const { source } = sourceOf({ "same.ts": "s", "gone.ts": "g" });
    const view = new WorkspaceView(source);
    view.write("same.ts", "s");
    view.remove("gone.ts");
    view.write("temp.ts", "t");
    view.remove("temp.ts");
    expect([...view.updates()]).toEqual([["gone.ts", null]]);
  });
});
