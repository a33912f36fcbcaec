import { z } from "zod";
import { defineTool } from "./agent-tool";
import { checkWorkspaceLimits } from "./workspace-limits";
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
    const overLimit = checkWorkspaceLimits(context.overlay, [[input.path, input.content]]);
    if (overLimit) return overLimit;
    const before = await context.overlay.readText(input.path);
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
