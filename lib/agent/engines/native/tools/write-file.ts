import { z } from "zod";
import { lazyRewriteProblem } from "@/lib/patch";
import { defineTool } from "./agent-tool";
import { limitFailure } from "./apply-patch";
import { workspacePathSchema } from "./read-file-range";

export const writeFileTool = defineTool({
  name: "write_file",
  description:
    "Replace a whole file's content. Only for files where apply_patch keeps failing; prefer apply_patch.",
  inputSchema: z.object({
    path: workspacePathSchema,
    content: z
      .string({ error: "content is required" })
      .max(1024 * 1024, "files are limited to 1 MiB"),
  }),
  title: (input) => `Write ${input.path}`,
  async execute(input, context) {
    if (!context.legacyWriteFileEnabled && !context.writeFileUnlocked.has(input.path)) {
      const message = `write_file is not available for ${input.path}; edit it with apply_patch.`;
      return {
        ok: false,
        code: "TOOL_NOT_ALLOWED",
        message,
        output: { error: { code: "TOOL_NOT_ALLOWED", message } },
      };
    }
    const limit = context.overlay.limitProblem(new Map([[input.path, input.content]]));
    if (limit) return limitFailure(limit);
    const before = await context.overlay.readText(input.path);
    const lazy = before === undefined ? null : lazyRewriteProblem(before, input.content);
    if (lazy) {
      const message = `${input.path}: ${lazy}.`;
      return {
        ok: false,
        code: "PATCH_LAZY_PLACEHOLDER",
        message,
        output: { ok: false, code: "PATCH_LAZY_PLACEHOLDER", summary: message },
      };
    }
    context.overlay.write(input.path, input.content);
    context.patchFailures.delete(input.path);
    const lines = input.content.split("\n").length;
    return {
      ok: true,
      summary: `${input.path} (${lines} lines)`,
      details: {
        files: [input.path],
        additions: lines,
        deletions: before === undefined ? 0 : before.split("\n").length,
      },
      output: { ok: true, path: input.path, created: before === undefined },
    };
  },
});
