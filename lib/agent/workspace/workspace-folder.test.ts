import {
  mkdir,
  mkdtemp,
  readdir,
  rename,
  rm,
  stat,
  symlink,
  unlink,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { workspaceLimits } from "@/lib/workspace";
import {
  collectFolderChanges,
  materializeFolder,
  removeFolder,
  removeLeftoverFolders,
} from "./workspace-folder";

const encoder = new TextEncoder();
const base = new Map<string, Uint8Array>([
  ["index.html", encoder.encode("<h1>Hello</h1>\n")],
  ["src/App.tsx", encoder.encode("export default function App() { return null; }\n")],
  ["src/logo.png", new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 255, 1])],
  ["src/old-name.ts", encoder.encode("export const value = 1;\n")],
]);

let area: string;

beforeEach(async () => {
  area = await mkdtemp(path.join(tmpdir(), "patchwork-folder-"));
});

afterEach(async () => {
  await rm(area, { recursive: true, force: true });
});

describe("materializeFolder", () => {
  it("writes every file into a private folder under the run area", async () => {
    const directory = await materializeFolder(area, "run-1", base);
    expect((await stat(directory)).mode & 0o777).toBe(0o700);
    const collected = await collectFolderChanges(directory, base);
    expect(collected).toEqual({ changes: [], refused: [] });
  });
});

describe("collectFolderChanges", () => {
  it("turns adds, updates, deletes, renames and binary files into file changes", async () => {
    const directory = await materializeFolder(area, "run-2", base);
    await writeFile(path.join(directory, "index.html"), "<h1>Changed</h1>\n");
    await writeFile(path.join(directory, "src/new.bin"), new Uint8Array([0, 1, 2, 254]));
    await unlink(path.join(directory, "src/logo.png"));
    await rename(path.join(directory, "src/old-name.ts"), path.join(directory, "src/new-name.ts"));
    const { changes, refused } = await collectFolderChanges(directory, base);
    expect(refused).toEqual([]);
    expect(changes).toEqual([
      { type: "rename", from: "src/old-name.ts", to: "src/new-name.ts" },
      { type: "write", path: "src/new.bin", content: new Uint8Array([0, 1, 2, 254]) },
      { type: "write", path: "index.html", content: encoder.encode("<h1>Changed</h1>\n") },
      { type: "delete", path: "src/logo.png" },
    ]);
  });

  it("ignores the engines' own state folders", async () => {
    const directory = await materializeFolder(area, "run-3", base);
    for (const folder of [".git", ".codex", ".opencode", ".claude", "node_modules"]) {
      await mkdir(path.join(directory, folder, "deep"), { recursive: true });
      await writeFile(path.join(directory, folder, "deep", "state.json"), "{}");
    }
    expect(await collectFolderChanges(directory, base)).toEqual({ changes: [], refused: [] });
  });

  it("refuses symlinks and oversized files with a reason, keeping their base version", async () => {
    const directory = await materializeFolder(area, "run-4", base);
    await unlink(path.join(directory, "index.html"));
    await symlink("/etc/passwd", path.join(directory, "index.html"));
    await symlink("/etc", path.join(directory, "outside"));
    await writeFile(path.join(directory, "huge.txt"), "x".repeat(workspaceLimits.maxFileBytes + 1));
    const { changes, refused } = await collectFolderChanges(directory, base);
    expect(changes).toEqual([]);
    expect(refused.map((entry) => entry.path).sort()).toEqual([
      "huge.txt",
      "index.html",
      "outside",
    ]);
    expect(refused.find((entry) => entry.path === "outside")?.reason).toMatch(/symbolic links/);
    expect(refused.find((entry) => entry.path === "huge.txt")?.reason).toMatch(/limited to/);
  });

  it("refuses names the workspace path policy rejects", async () => {
    const directory = await materializeFolder(area, "run-5", base);
    await writeFile(path.join(directory, "bad\\name.ts"), "x");
    const { changes, refused } = await collectFolderChanges(directory, base);
    expect(changes).toEqual([]);
    expect(refused).toEqual([{ path: "bad\\name.ts", reason: expect.stringMatching(/backslash/) }]);
  });
});

describe("removing folders", () => {
  it("removes a run's folder, and at start-up the folders of processes that are gone", async () => {
    const first = await materializeFolder(area, "11111111-aaaa", base);
    const live = await materializeFolder(area, "22222222-bbbb", base);
    await mkdir(path.join(area, "run-999999999-33333333-cccc"));
    await mkdir(path.join(area, "not-a-run"));
    await removeFolder(first);
    await removeFolder(first);
    expect(await removeLeftoverFolders(area)).toBe(1);
    expect((await readdir(area)).sort()).toEqual(["not-a-run", path.basename(live)]);
    expect(await removeLeftoverFolders(path.join(area, "missing"))).toBe(0);
  });
});
