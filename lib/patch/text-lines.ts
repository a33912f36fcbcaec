/** The line ending that followed a line; "" only for a last line without a final newline. */
export type LineEnding = "" | "\n" | "\r\n";

/** A text split into lines, keeping every line ending so the text can be rebuilt byte for byte. */
export interface SplitText {
  lines: string[];
  endings: LineEnding[];
  byteOrderMark: boolean;
}

/** A split text that also knows where each line starts in the original string, to copy spans. */
export interface IndexedText extends SplitText {
  /** Offset in the original string (byte-order mark included) where each line starts. */
  starts: number[];
  /** The ending new lines should get (see {@link dominantLineEnding}). */
  dominantEnding: "\n" | "\r\n";
}

const byteOrderMarkCode = 0xfeff;
const carriageReturnCode = 13;

/**
 * Splits a text into lines on "\n", recording "\r\n" endings separately so CRLF files keep their
 * endings. A leading byte-order mark is set aside so a hunk that replaces line 1 cannot drop it.
 */
export function splitText(text: string): IndexedText {
  const byteOrderMark = text.charCodeAt(0) === byteOrderMarkCode;
  const lines: string[] = [];
  const endings: LineEnding[] = [];
  const starts: number[] = [];
  let start = byteOrderMark ? 1 : 0;
  let crlf = 0;
  while (start < text.length) {
    starts.push(start);
    const newline = text.indexOf("\n", start);
    if (newline === -1) {
      lines.push(text.slice(start));
      endings.push("");
      break;
    }
    if (newline > start && text.charCodeAt(newline - 1) === carriageReturnCode) {
      lines.push(text.slice(start, newline - 1));
      endings.push("\r\n");
      crlf += 1;
    } else {
      lines.push(text.slice(start, newline));
      endings.push("\n");
    }
    start = newline + 1;
  }
  const lf = endings.length - crlf - (endings.at(-1) === "" ? 1 : 0);
  return { lines, endings, byteOrderMark, starts, dominantEnding: crlf > lf ? "\r\n" : "\n" };
}

/** Rebuilds the text that {@link splitText} split. */
export function joinText(split: SplitText): string {
  const parts: string[] = split.byteOrderMark ? ["\uFEFF"] : [];
  for (let index = 0; index < split.lines.length; index += 1) {
    parts.push(split.lines[index], split.endings[index]);
  }
  return parts.join("");
}

/**
 * The ending new lines should get: the file's majority ending, "\n" when the file has none yet
 * (an empty or one-line file) — so an LF patch written into a CRLF file stays CRLF.
 */
export function dominantLineEnding(endings: readonly LineEnding[]): "\n" | "\r\n" {
  let crlf = 0;
  let lf = 0;
  for (const ending of endings) {
    if (ending === "\r\n") crlf += 1;
    else if (ending === "\n") lf += 1;
  }
  return crlf > lf ? "\r\n" : "\n";
}
