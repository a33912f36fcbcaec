import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db/client";
import { openDatabase } from "@/db/client";
import { WorkspaceOverlay } from "@/lib/agent/workspace/workspace-overlay";
import { PatchStopped } from "@/lib/patch-worker/apply-patch-in-worker";
import { createApp } from "@/lib/workspace";
import type { ToolContext } from "./agent-tool";
import { applyPatchToOverlay, applyPatchTool, patchedPaths } from "./apply-patch";

const running = () => new AbortController().signal;

const app = "export function App() {\n  return <h1>Old</h1>;\n}\n";
const goodPatch =
  "--- a/src/App.tsx\n+++ b/src/App.tsx\n@@ -1,3 +1,3 @@\n export function App() {\n-  return <h1>Old</h1>;\n+  return <h1>New</h1>;\n }\n";
const stalePatch =
  "--- a/src/App.tsx\n+++ b/src/App.tsx\n@@ -1,3 +1,3 @@\n export function Page() {\n-  return <h2>Nope</h2>;\n+  return <h2>New</h2>;\n }\n";

describe("apply_patch over a run's overlay", () => {
  let handle: DatabaseHandle;
  let context: ToolContext;

  beforeAll(async () => {
    handle = await openDatabase({});
  });
  afterAll(async () => {
    await handle.close();
  });

  async function freshContext(): Promise<ToolContext> {
    const created = await createApp(handle.db, {
      name: "overlay",
      files: { "src/App.tsx": app, "logo.bin": new Uint8Array([0, 1, 2, 0]) },
    });
    const overlay = await WorkspaceOverlay.open(handle.db, {
      appId: created.id,
      revisionId: created.draftRevisionId!,
    });
    return {
      overlay,
      patchFailures: new Map(),
      writeFileUnlocked: new Set(),
      legacyWriteFileEnabled: false,
      autoVerifyPatch: false,
      verify: async () => ({ ok: true, diagnostics: [], duration_ms: 0 }),
      check: async () => {
        throw new Error("apply_patch never checks the app");
      },
    };
  }

  it("applies to the overlay only, and later reads see the edit", async () => {
    context = await freshContext();
    const outcome = await applyPatchTool.execute({ patch: goodPatch }, context, running());
    expect(outcome).toMatchObject({
      ok: true,
      details: { files: ["src/App.tsx"], additions: 1, deletions: 1 },
    });
    expect(await context.overlay.readText("src/App.tsx")).toContain("<h1>New</h1>");
    expect(await context.overlay.changes()).toEqual([
      { type: "write", path: "src/App.tsx", content: app.replace("Old", "New") },
    ]);
  });

  it("counts failures per file, advises a re-read, and unlocks write_file after two", async () => {
    context = await freshContext();
    const first = await applyPatchTool.execute({ patch: stalePatch }, context, running());
    expect(first).toMatchObject({ ok: false, details: { patch_failure_count: 1 } });
    expect(context.writeFileUnlocked.size).toBe(0);
    const second = await applyPatchTool.execute({ patch: stalePatch }, context, running());
    expect(second).toMatchObject({
      ok: false,
      details: { patch_failure_count: 2, recommended_refresh: ["src/App.tsx"] },
    });
    expect((second as { output: { advice: string } }).output.advice).toContain("Re-read");
    expect([...context.writeFileUnlocked]).toEqual(["src/App.tsx"]);
    expect(await context.overlay.changes()).toEqual([]);
  });

  it("refuses to patch a binary file", async () => {
    context = await freshContext();
    const outcome = await applyPatchTool.execute(
      { patch: "--- a/logo.bin\n+++ b/logo.bin\n@@ -1 +1 @@\n-x\n+y\n" },
      context,
      running(),
    );
    expect(outcome).toMatchObject({ ok: false, code: "PATCH_FILE_NOT_TEXT" });
  });

  it("stops a long patch at once when its signal aborts, and the next patch still works", async () => {
    const created = await createApp(handle.db, {
      name: "big",
      files: { "big.txt": "x\n".repeat(100_000) },
    });
    const overlay = await WorkspaceOverlay.open(handle.db, {
      appId: created.id,
      revisionId: created.draftRevisionId!,
    });
    const hunks = Array.from({ length: 11_000 }, (_, index) => {
      const start = (((index + 1) * 7919) % 100_000) + 1;
      return `@@ -${start},7 +${start},7 @@\n x\n x\n x\n-y\n+q\n x\n x\n x\n`;
    });
    const patch = `--- a/big.txt\n+++ b/big.txt\n${hunks.join("")}`;
    // Warm the thread pool, so what is measured below is the stop, not the first bundle.
    await applyPatchToOverlay(overlay, goodPatch, running());
    const controller = new AbortController();
    const pending = applyPatchToOverlay(overlay, patch, controller.signal);
    setTimeout(() => controller.abort(new Error("stopped by the person")), 20);
    // Rejected, not resolved: the thread was terminated before the engine answered.
    await expect(pending).rejects.toBeInstanceOf(PatchStopped);
    const finished = await applyPatchToOverlay(overlay, patch, running());
    expect(finished).toMatchObject({ ok: false, code: "PATCH_CONTEXT_NOT_FOUND" });
  });

  it("refuses a patch that would break an app limit before writing, so other edits still land", async () => {
    context = await freshContext();
    const huge = `*** Begin Patch\n*** Add File: data.json\n${"+0123456789abcdef\n".repeat(70_000)}*** End Patch\n`;
    const outcome = await applyPatchTool.execute({ patch: huge }, context, running());
    expect(outcome).toMatchObject({ ok: false, code: "PAYLOAD_TOO_LARGE" });
    expect(outcome.ok ? "" : outcome.message).toContain("files are limited to 1.0 MiB");
    expect(await context.overlay.changes()).toEqual([]);
    const next = await applyPatchTool.execute({ patch: goodPatch }, context, running());
    expect(next.ok).toBe(true);
  });

  it("refuses paths the store would refuse, before anything is written", async () => {
    context = await freshContext();
    for (const path of ["src/ leading.ts", `${"d".repeat(300)}.ts`, ".git/config", "x\u202e.ts"]) {
      const outcome = await applyPatchTool.execute(
        { patch: `*** Begin Patch\n*** Add File: ${path}\n+x\n*** End Patch\n` },
        context,
        running(),
      );
      expect(outcome, path).toMatchObject({ ok: false, code: "PATCH_PATH_POLICY_VIOLATION" });
    }
    expect(await context.overlay.changes()).toEqual([]);
  });

  it("names the files of both patch formats for titles and preloading", () => {
    expect(patchedPaths(goodPatch)).toEqual(["src/App.tsx"]);
    expect(
      patchedPaths(
        "*** Begin Patch\n*** Update File: a.ts\n*** Move to: b.ts\n@@\n-x\n+y\n*** Add File: c.ts\n+z\n*** End Patch",
      ),
    ).toEqual(["a.ts", "b.ts", "c.ts"]);
  });
});
