/** The parsed form both patch formats are read into; everything after parsing works on this. */

export type HunkLineKind = "context" | "delete" | "add";

export interface HunkLine {
  kind: HunkLineKind;
  text: string;
  /** The patch line ended in "\r": meaningful only when the patch carries line endings itself. */
  carriageReturn: boolean;
}

export interface Hunk {
  lines: HunkLine[];
  /** `\ No newline at end of file` followed the last old-side line: it was the file's end. */
  oldEndsWithoutNewline: boolean;
  /** `\ No newline at end of file` followed the last new-side line: the result has no final newline. */
  newEndsWithoutNewline: boolean;
  /** 0-based index where the old lines start according to the header; null when unstated. */
  statedIndex: number | null;
  /** The header's line counts agree with the body, so its line number is worth trusting. */
  headerTrusted: boolean;
  /** `@@ anchor` lines (Begin Patch): each is searched after the previous, the hunk after the last. */
  anchors: string[];
  /** `*** End of File`: the hunk belongs at the end of the file. */
  endOfFile: boolean;
  /** 1-based line of the patch text where the hunk starts. */
  patchLine: number;
}

export type FilePatchKind = "add" | "delete" | "update" | "rename" | "copy";

export interface FilePatch {
  kind: FilePatchKind;
  /** The file read (update, delete, rename or copy source) or created (add). */
  path: string;
  /** The destination of a rename or copy. */
  targetPath: string | null;
  /**
   * A unified diff whose '---' and '+++' name different files without rename headers: the update
   * goes to whichever of `path` and this one exists.
   */
  alternatePath: string | null;
  hunks: Hunk[];
  /** A binary diff the engine cannot apply. */
  binary: boolean;
  /** 1-based line of the patch text where the file's section starts. */
  patchLine: number;
}

export interface ParsedPatch {
  format: "unified" | "begin-patch";
  files: FilePatch[];
  /** Hunk lines carry their own "\r": added lines keep the patch's endings. */
  carriesLineEndings: boolean;
  warnings: string[];
}

export interface ParseFailure {
  /** 1-based line of the patch text. */
  line: number;
  expected: string;
  found: string;
}

export type ParseOutcome = { ok: true; patch: ParsedPatch } | { ok: false; failure: ParseFailure };

/** A fresh hunk with nothing stated; parsers fill it in. */
export function emptyHunk(patchLine: number): Hunk {
  return {
    lines: [],
    oldEndsWithoutNewline: false,
    newEndsWithoutNewline: false,
    statedIndex: null,
    headerTrusted: false,
    anchors: [],
    endOfFile: false,
    patchLine,
  };
}

/** The lines a hunk expects to find in the file: its context and removed lines, in order. */
export function oldSideLines(hunk: Hunk): HunkLine[] {
  return hunk.lines.filter((line) => line.kind !== "add");
}

/** The lines a hunk leaves in the file: its context and added lines, in order. */
export function newSideLines(hunk: Hunk): HunkLine[] {
  return hunk.lines.filter((line) => line.kind !== "delete");
}
