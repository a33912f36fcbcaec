/** One line of the patch text, without its line ending. */
export interface PatchTextLine {
  text: string;
  carriageReturn: boolean;
  /** 1-based line number in the text the caller sent, for error messages. */
  number: number;
}

const fencePattern = /^(`{3,}|~{3,})/;

/** Lines that only a patch starts with; a fenced block holding one is the patch. */
function looksLikePatchLine(text: string): boolean {
  return (
    text.trim() === "*** Begin Patch" ||
    text.startsWith("diff --git ") ||
    text.startsWith("--- ") ||
    text.startsWith("+++ ") ||
    text.startsWith("@@")
  );
}

/**
 * Splits the text a model sent into patch lines, keeping only the fenced blocks that hold a patch
 * when there are markdown fences (prose outside them is dropped). Fences count only at column 0:
 * a fence inside a patched markdown file is always prefixed by ' ', '+' or '-'.
 */
export function extractPatchLines(patch: string): PatchTextLine[] {
  const body = patch.charCodeAt(0) === 0xfeff ? patch.slice(1) : patch;
  const raw = body.split("\n");
  if (raw.length > 0 && raw[raw.length - 1] === "") raw.pop();
  // A patch saved with CRLF throughout says nothing about the files' endings.
  const transportedAsCrlf = raw.length > 0 && raw.every((line) => line.endsWith("\r"));
  const lines = raw.map((line, index) => {
    const carriageReturn = line.endsWith("\r");
    return {
      text: carriageReturn ? line.slice(0, -1) : line,
      carriageReturn: carriageReturn && !transportedAsCrlf,
      number: index + 1,
    };
  });
  return keepFencedPatchBlocks(lines);
}

function keepFencedPatchBlocks(lines: PatchTextLine[]): PatchTextLine[] {
  const blocks: PatchTextLine[][] = [];
  let open: { fence: string; lines: PatchTextLine[] } | null = null;
  for (const line of lines) {
    const fence = fencePattern.exec(line.text)?.[1];
    if (open) {
      // A closing fence is the same character, at least as long, with nothing after it.
      if (
        fence &&
        fence[0] === open.fence[0] &&
        fence.length >= open.fence.length &&
        line.text.trim() === fence
      ) {
        blocks.push(open.lines);
        open = null;
      } else {
        open.lines.push(line);
      }
    } else if (fence) {
      open = { fence, lines: [] };
    }
  }
  // An unclosed fence (a truncated reply) still holds whatever followed it.
  if (open) blocks.push(open.lines);
  const patchBlocks = blocks.filter((block) => block.some((line) => looksLikePatchLine(line.text)));
  return patchBlocks.length > 0 ? patchBlocks.flat() : lines;
}
