import { describe, expect, it } from "vitest";
import { joinAppPath, VirtualFiles } from "./virtual-files";

const files = new VirtualFiles(
  new Map<string, string | Uint8Array>([
    ["./src/App.tsx", "export {}"],
    ["src/util.ts", "export {}"],
    ["src/components/index.tsx", "export {}"],
    ["src/data.json", "{}"],
    ["src/logo.png", new Uint8Array([137, 80, 78, 71])],
    ["src/text.txt", new TextEncoder().encode("héllo")],
  ]),
);

describe("VirtualFiles.resolveImport", () => {
  it.each([
    ["src/main.tsx", "./App", "src/App.tsx"],
    ["src/main.tsx", "./App.tsx", "src/App.tsx"],
    ["src/main.tsx", "./util.js", "src/util.ts"],
    ["src/main.tsx", "./components", "src/components/index.tsx"],
    ["src/components/index.tsx", "../data.json", "src/data.json"],
    ["index.html", "/src/App", "src/App.tsx"],
    ["src/main.tsx", "./App?raw", "src/App.tsx"],
  ])("from %s, %s → %s", (importer, specifier, expected) => {
    expect(files.resolveImport(importer, specifier)).toBe(expected);
  });

  it("returns null for missing files and for paths that climb out of the app", () => {
    expect(files.resolveImport("src/main.tsx", "./Missing")).toBeNull();
    expect(files.resolveImport("src/main.tsx", "../../etc/passwd")).toBeNull();
  });
});

describe("VirtualFiles contents", () => {
  it("decodes bytes as UTF-8 text and keeps binary files as bytes", () => {
    expect(files.readText("src/text.txt")).toBe("héllo");
    expect(files.readBytes("src/logo.png")).toEqual(new Uint8Array([137, 80, 78, 71]));
    expect(files.has("src/App.tsx")).toBe(true);
  });
});

describe("joinAppPath", () => {
  it("treats a leading slash as the app root and refuses to leave it", () => {
    expect(joinAppPath("src/a", "/b/c")).toBe("b/c");
    expect(joinAppPath("src/a", "../b")).toBe("src/b");
    expect(joinAppPath("src", "../../b")).toBeNull();
  });
});
