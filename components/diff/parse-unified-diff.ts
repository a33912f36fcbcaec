export type DiffLineKind = "context" | "addition" | "deletion";

export interface DiffLine {
  kind: DiffLineKind;
  content: string;
  oldNumber: number | null;
  newNumber: number | null;
  /** The file ends on this line without a final newline ("\ No newline at end of file"). */
  noFinalNewline: boolean;
}

export interface DiffHunk {
  header: string;
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  /** The text after the closing @@, often the enclosing function. */
  section: string;
  lines: DiffLine[];
}

const hunkHeader = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@ ?(.*)$/;

/**
 * Parses one file's unified diff (---/+++ lines, then @@ hunks) into numbered lines. File
 * headers and anything before the first hunk are skipped; the caller already knows the path.
 */
export function parseUnifiedDiff(patch: string): DiffHunk[] {
  const hunks: DiffHunk[] = [];
  let current: DiffHunk | null = null;
  let oldNumber = 0;
  let newNumber = 0;
  const lines = patch.split("\n");
  if (lines.at(-1) === "") lines.pop();

  for (const line of lines) {
    const header = hunkHeader.exec(line);
    if (header) {
      current = {
        header: line,
        oldStart: Number(header[1]),
        oldLines: header[2] === undefined ? 1 : Number(header[2]),
        newStart: Number(header[3]),
        newLines: header[4] === undefined ? 1 : Number(header[4]),
        section: header[5] ?? "",
        lines: [],
      };
      oldNumber = current.oldStart;
      newNumber = current.newStart;
      hunks.push(current);
      continue;
    }
    if (!current) continue;
    if (line.startsWith("\\")) {
      const previous = current.lines.at(-1);
      if (previous) previous.noFinalNewline = true;
      continue;
    }
    const marker = line.charAt(0);
    const content = line.slice(1);
    if (marker === "+") {
      current.lines.push({
        kind: "addition",
        content,
        oldNumber: null,
        newNumber,
        noFinalNewline: false,
      });
      newNumber += 1;
    } else if (marker === "-") {
      current.lines.push({
        kind: "deletion",
        content,
        oldNumber,
        newNumber: null,
        noFinalNewline: false,
      });
      oldNumber += 1;
    } else if (marker === " " || line === "") {
      current.lines.push({ kind: "context", content, oldNumber, newNumber, noFinalNewline: false });
      oldNumber += 1;
      newNumber += 1;
    }
  }
  return hunks;
}
