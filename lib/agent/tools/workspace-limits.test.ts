import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db/client";
import { openDatabase } from "@/db/client";
import { createApp, workspaceLimits } from "@/lib/workspace";
import { WorkspaceOverlay } from "../workspace-overlay";
import type { ToolContext } from "./agent-tool";
import { applyPatchTool } from "./apply-patch";
import { writeFileTool } from "./write-file";

describe("limits and the path policy checked at the tool", () => {
  let handle: DatabaseHandle;

  beforeAll(async () => {
    handle = await openDatabase({});
  });
  afterAll(async () => {
    await handle.close();
  });

  async function contextFor(files: Record<string, string>): Promise<ToolContext> {
    const created = await createApp(handle.db, { name: "limits", files });
    const overlay = await WorkspaceOverlay.open(handle.db, {
      appId: created.id,
      revisionId: created.draftRevisionId!,
    });
    return {
      overlay,
      patchFailures: new Map(),
      writeFileUnlocked: new Set(),
      legacyWriteFileEnabled: true,
      autoVerifyPatch: false,
      verify: async () => ({ ok: true, diagnostics: [], duration_ms: 0 }),
    };
  }

  it("refuses a patch that would pass the app's file count, and applies nothing of it", async () => {
    const files: Record<string, string> = {};
    for (let index = 0; index < workspaceLimits.maxAppFiles; index += 1)
      files[`f/${index}.txt`] = `${index}\n`;
    const context = await contextFor(files);
    const outcome = await applyPatchTool.execute(
      { patch: "*** Begin Patch\n*** Add File: one-too-many.txt\n+x\n*** End Patch\n" },
      context,
    );
    expect(outcome).toMatchObject({ ok: false, code: "PAYLOAD_TOO_LARGE" });
    expect(context.overlay.has("one-too-many.txt")).toBe(false);
    expect(await context.overlay.changes()).toEqual([]);
  });

  it("refuses write_file over the file size limit, keeping the earlier edits", async () => {
    const context = await contextFor({ "a.txt": "a\n" });
    await writeFileTool.execute({ path: "b.txt", content: "b\n" }, context);
    const outcome = await writeFileTool.execute(
      { path: "big.txt", content: "x".repeat(workspaceLimits.maxFileBytes + 1) },
      context,
    );
    expect(outcome).toMatchObject({ ok: false, code: "PAYLOAD_TOO_LARGE" });
    expect(await context.overlay.changes()).toEqual([
      { type: "write", path: "b.txt", content: "b\n" },
    ]);
  });

  it("answers PATCH_PATH_POLICY_VIOLATION for a name the store would refuse", async () => {
    const context = await contextFor({ "a.txt": "a\n" });
    for (const path of ["a/ lead.txt", `${"d/".repeat(257)}x.txt`, ".git/config", "x\u202e.txt"]) {
      const outcome = await applyPatchTool.execute(
        { patch: `*** Begin Patch\n*** Add File: ${path}\n+x\n*** End Patch\n` },
        context,
      );
      expect(outcome).toMatchObject({ ok: false, code: "PATCH_PATH_POLICY_VIOLATION" });
    }
    expect(await context.overlay.changes()).toEqual([]);
  });
});
