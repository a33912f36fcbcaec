import { createHash } from "node:crypto";
import { z } from "zod";
import { normalizeWorkspacePath } from "@/lib/patch";
import { workspacePathProblem } from "@/lib/workspace/paths";
import { defineTool } from "./agent-tool";
import { lineNumberSchema } from "./tool-input";

/** Enough for a few hundred lines of code, small enough to leave the model room to think. */
export const readByteBudget = 24 * 1024;

export const workspacePathSchema = z
  .string({ error: "path is required" })
  .min(1, "path is required")
  .superRefine((path, context) => {
    const problem = workspacePathProblem(path);
    if (problem) context.addIssue({ code: "custom", message: problem });
  })
  // The canonical form (NFC, no "./"), so the tool names the same file the store keeps.
  .transform((path) => {
    const checked = normalizeWorkspacePath(path);
    return checked.ok ? checked.path : path;
  });

export const readFileRangeTool = defineTool({
  name: "read_file_range",
  description:
    "Read a file's lines with line numbers. Give start_line/end_line (1-based, inclusive) for a window; omit them to read from the top. Returns total_lines and a revision token; long reads are cut at a byte budget and say where to continue.",
  inputSchema: z
    .object({
      path: workspacePathSchema,
      start_line: lineNumberSchema.optional(),
      end_line: lineNumberSchema.optional(),
    })
    .refine((input) => !input.start_line || !input.end_line || input.end_line >= input.start_line, {
      message: "end_line must not be before start_line",
      path: ["end_line"],
    }),
  title: (input) =>
    input.start_line || input.end_line
      ? `Read ${input.path} (lines ${input.start_line ?? 1}–${input.end_line ?? "end"})`
      : `Read ${input.path}`,
  async execute(input, { overlay }) {
    if (!overlay.has(input.path)) {
      const near = overlay
        .paths()
        .filter((path) => path.endsWith(input.path.split("/").pop() ?? ""))
        .slice(0, 5);
      return failure(
        "FILE_NOT_FOUND",
        `${input.path} does not exist.${near.length ? ` Did you mean: ${near.join(", ")}?` : ""}`,
      );
    }
    const text = await overlay.readText(input.path);
    if (text === undefined)
      return failure(
        "FILE_IS_BINARY",
        `${input.path} is a binary file and cannot be read as text.`,
      );
    const lines = text.split("\n");
    if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
    const totalLines = text === "" ? 0 : lines.length;
    const start = Math.min(input.start_line ?? 1, Math.max(totalLines, 1));
    const end = Math.min(input.end_line ?? totalLines, totalLines);
    const width = String(Math.max(end, 1)).length;
    const numbered: string[] = [];
    let bytes = 0;
    let lastLine = start - 1;
    for (let line = start; line <= end; line += 1) {
      const rendered = `${String(line).padStart(width, " ")}| ${lines[line - 1]}`;
      bytes += Buffer.byteLength(rendered) + 1;
      if (bytes > readByteBudget && numbered.length > 0) break;
      numbered.push(rendered);
      lastLine = line;
    }
    const truncated = lastLine < end;
    const revisionToken = createHash("sha256").update(text).digest("hex").slice(0, 12);
    return {
      ok: true,
      summary: totalLines === 0 ? "empty file" : `lines ${start}–${lastLine} of ${totalLines}`,
      details: { path: input.path, start_line: start, end_line: lastLine, total_lines: totalLines },
      output: {
        path: input.path,
        start_line: start,
        end_line: lastLine,
        total_lines: totalLines,
        revision_token: revisionToken,
        content: numbered.join("\n"),
        ...(truncated ? { truncated: true, next_start_line: lastLine + 1 } : {}),
      },
    };
  },
});

function failure(code: string, message: string) {
  return { ok: false as const, code, message, output: { error: { code, message } } };
}
