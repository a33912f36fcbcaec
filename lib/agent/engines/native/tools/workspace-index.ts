import { z } from "zod";
import { defineTool } from "./agent-tool";
import { languageOf, outlineOf } from "./language";

const maxIndexedFiles = 300;

/** Turns a simple glob (`*`, `**`, `?`, `{a,b}`) into a regular expression over whole paths. */
export function globToRegExp(glob: string): RegExp {
  let pattern = "";
  for (let index = 0; index < glob.length; index += 1) {
    const character = glob[index];
    if (character === "*") {
      if (glob[index + 1] === "*") {
        pattern += glob[index + 2] === "/" ? "(?:.*/)?" : ".*";
        index += glob[index + 2] === "/" ? 2 : 1;
      } else pattern += "[^/]*";
    } else if (character === "?") pattern += "[^/]";
    else if (character === "{") {
      const close = glob.indexOf("}", index);
      if (close === -1) pattern += "\\{";
      else {
        pattern += `(?:${glob
          .slice(index + 1, close)
          .split(",")
          .map((part) => part.replace(/[.+^${}()|[\]\\*?]/g, "\\$&"))
          .join("|")})`;
        index = close;
      }
    } else pattern += character.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${pattern}$`);
}

export const workspaceIndexTool = defineTool({
  name: "workspace_index",
  description:
    'List the workspace\'s files (path, size, hash, language) with an outline of top-level symbols and their lines. Optional glob, e.g. "src/**/*.tsx".',
  inputSchema: z.object({ glob: z.string().max(200).optional() }),
  title: (input) => (input.glob ? `Index ${input.glob}` : "Index workspace"),
  async execute(input, { overlay }) {
    const matcher = input.glob ? globToRegExp(input.glob) : null;
    const paths = overlay.paths().filter((path) => !matcher || matcher.test(path));
    const listed = paths.slice(0, maxIndexedFiles);
    await overlay.preload(listed);
    const files = listed.map((path) => {
      const text = overlay.peekText(path);
      return {
        path,
        size: overlay.sizeOf(path) ?? 0,
        hash: text === undefined ? null : hashText(text),
        language: text === undefined ? "binary" : languageOf(path),
        ...(text === undefined
          ? {}
          : { lines: text.split("\n").length, outline: outlineOf(path, text) }),
      };
    });
    return {
      ok: true,
      summary: `${paths.length} file${paths.length === 1 ? "" : "s"}`,
      details: { file_count: paths.length },
      output: {
        files,
        total_files: paths.length,
        ...(paths.length > listed.length ? { truncated: true } : {}),
      },
    };
  },
});

function hashText(text: string): string {
  // A short, stable fingerprint (FNV-1a) so the model can tell when a file changed.
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}
