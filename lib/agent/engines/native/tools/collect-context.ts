import { z } from "zod";
import { defineTool } from "./agent-tool";
import { workspacePathSchema } from "./read-file-range";

const maxMatches = 20;
const windowLines = 3;

export const collectContextTool = defineTool({
  name: "collect_context",
  description:
    "Search the workspace's text files for a query (case-insensitive; every word must appear on the line) and return each match with the surrounding lines, numbered. Optional paths limit the search.",
  inputSchema: z.object({
    query: z.string({ error: "query is required" }).trim().min(1, "query is required").max(200),
    paths: z.array(workspacePathSchema).max(50).optional(),
  }),
  title: (input) =>
    `Search “${input.query.length > 40 ? `${input.query.slice(0, 39)}…` : input.query}”`,
  async execute(input, { overlay }) {
    const candidates = input.paths ?? overlay.paths();
    await overlay.preload(candidates);
    const words = input.query.toLowerCase().split(/\s+/).filter(Boolean);
    const matches: { path: string; line: number; window: string }[] = [];
    let total = 0;
    for (const path of candidates) {
      const text = overlay.peekText(path);
      if (text === undefined) continue;
      const lines = text.split("\n");
      for (let index = 0; index < lines.length; index += 1) {
        const lower = lines[index].toLowerCase();
        if (!words.every((word) => lower.includes(word))) continue;
        total += 1;
        if (matches.length >= maxMatches) continue;
        const from = Math.max(0, index - windowLines);
        const to = Math.min(lines.length, index + windowLines + 1);
        const window = lines
          .slice(from, to)
          .map(
            (line, offset) => `${from + offset + 1}${from + offset === index ? ">" : "|"} ${line}`,
          )
          .join("\n");
        matches.push({ path, line: index + 1, window });
      }
    }
    return {
      ok: true,
      summary: `${total} match${total === 1 ? "" : "es"}`,
      details: { match_count: total },
      output: {
        query: input.query,
        matches,
        total_matches: total,
        ...(total > matches.length ? { truncated: true } : {}),
      },
    };
  },
});
