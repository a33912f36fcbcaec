import type { PatchErrorCode } from "./error-codes";

/**
 * Read access to the workspace the patch applies to. A `ReadonlyMap<string, string>` satisfies
 * it. Paths are workspace-relative with "/" separators. `get` returns `undefined` for a missing
 * file, and also for a file that exists (`has` is true) but is not text the engine may edit.
 */
export interface PatchFileSource {
  get(path: string): string | undefined;
  has(path: string): boolean;
  /** Every file path; the engine calls it only to tell a directory apart or suggest a path. */
  keys(): Iterable<string>;
  /** Optional fast answer to "is this path a directory"; without it the engine scans `keys()`. */
  isDirectory?(path: string): boolean;
}

/** What `applyPatch` returns: the new file contents, or why nothing was changed. */
export type PatchResult = PatchSuccess | PatchFailure;

/** How one hunk was placed; loose placements are worth a second look. */
export type MatchTolerance =
  | "exact"
  | "offset"
  | "trailing-whitespace"
  | "surrounding-whitespace"
  | "unicode-lookalike"
  | "missing-context"
  /** The hunk left code out with an elision marker ("// ... existing code ..."); the gap was kept. */
  | "elided-context";

export interface PatchChange {
  /** The path that holds the result (the destination of a move or copy; the removed path of a delete). */
  path: string;
  op: "add" | "update" | "delete" | "rename";
  /** The source of a rename, or of a copy (reported as an add). */
  from_path?: string;
  additions: number;
  deletions: number;
}

/** One hunk that applied somewhere other than exactly where it said, or only loosely. */
export interface LooseMatch {
  path: string;
  /** 1-based position of the hunk within its file section. */
  hunk_index: number;
  /** 1-based lines of the patched file where the hunk's result now sits. */
  start_line: number;
  end_line: number;
  tolerance: MatchTolerance;
}

/** What to run or read after the patch so a model (or a person) can trust the result. */
export interface VerificationPlan {
  /** Paths with new content: added, updated, and move or copy destinations. */
  files_to_check: string[];
  /** Paths that no longer exist; anything importing them may now break. */
  removed_paths: string[];
  checks: VerificationCheck[];
  /**
   * Hunks placed ignoring indentation or look-alike characters, or with a context line missing;
   * re-read these lines to confirm the edit landed as intended. (Offset and trailing-whitespace
   * placements are left out: their lines matched as written.)
   */
  review: LooseMatch[];
}

export interface VerificationCheck {
  kind: "typecheck" | "bundle" | "parse_json" | "run_tests" | "find_references";
  paths: string[];
  reason: string;
}

export interface PatchSuccess {
  ok: true;
  changes: PatchChange[];
  verification_plan: VerificationPlan;
  /** Only the touched paths: the new full text, or null when the path no longer exists. */
  updates: Map<string, string | null>;
  /** Things the engine chose to ignore, e.g. file mode changes. */
  warnings: string[];
}

export interface PatchFailure {
  ok: false;
  /** The code of the first failure. */
  code: PatchErrorCode;
  /** One sentence a model can act on. */
  summary: string;
  /** The first failures in patch order (at most 20). */
  failures: PatchFailureDetail[];
  /** How many more failures there were than `failures` lists. */
  omitted_failures?: number;
  /** The current, numbered lines around where each failed hunk should go. */
  refresh_windows: RefreshWindow[];
}

export interface PatchFailureDetail {
  /** The file the failure concerns; null for a patch-level failure (parse, empty). */
  path: string | null;
  /** 1-based position of the failing hunk within its file section; null for a whole-file failure. */
  hunk_index: number | null;
  code: PatchErrorCode;
  message: string;
  /** The lines the hunk expected to find (context and removed lines), in order. */
  expected_lines: string[];
  /** Where the file looks most like what the hunk expected; null when nothing resembles it. */
  nearest_match: { start_line: number; similarity: number } | null;
  /** For PATCH_AMBIGUOUS_MATCH: the 1-based lines where each equally good match starts. */
  candidate_lines?: number[];
  /** For PATCH_PARSE_FAILED: the 1-based line of the patch text that could not be read. */
  patch_line?: number;
}

export interface RefreshWindow {
  path: string;
  start_line: number;
  end_line: number;
  /** The lines start_line..end_line as "<number> | <text>", one per line. */
  content: string;
}
