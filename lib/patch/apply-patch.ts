import { applyFileOperation } from "./apply-file-operation";
import { ChangeLog } from "./change-log";
import { parsePatch } from "./parse-patch";
import { buildPatchFailure, type FailureEntry, fileFailure } from "./patch-failure";
import type { FilePatch, ParsedPatch } from "./patch-model";
import type { LooseMatch, PatchFailure, PatchFileSource, PatchResult } from "./patch-result";
import { normalizeWorkspacePath } from "./path-policy";
import { SearchBudgetExceeded, unitsPerLine, withSearchBudget } from "./search-budget";
import { planVerification } from "./verification-plan";
import { WorkspaceView } from "./workspace-view";

/** The input of {@link applyPatch}. */
export interface ApplyPatchInput {
  /** The workspace before the patch; never modified. */
  files: PatchFileSource;
  /** A unified diff or a `*** Begin Patch` patch, possibly inside markdown fences and prose. */
  patch: string;
}

/**
 * Checks every path the parsed patch names against the workspace path policy and replaces each
 * with its normalised form. Runs before any file is read.
 */
export function enforcePathPolicy(patch: ParsedPatch): FailureEntry[] {
  const violations: FailureEntry[] = [];
  const check = (file: FilePatch, key: "path" | "targetPath" | "alternatePath") => {
    const raw = file[key];
    if (raw === null) return;
    const checked = normalizeWorkspacePath(raw);
    if (checked.ok) file[key] = checked.path;
    else {
      violations.push(
        fileFailure(
          raw,
          "PATCH_PATH_POLICY_VIOLATION",
          `the path ${JSON.stringify(raw)} is refused: ${checked.reason}`,
        ),
      );
    }
  };
  for (const file of patch.files) {
    check(file, "path");
    check(file, "targetPath");
    check(file, "alternatePath");
    // "--- ./x" and "+++ x" name one file.
    if (file.alternatePath === file.path) file.alternatePath = null;
  }
  return violations;
}

/**
 * Parses a patch and checks its paths — everything that needs no file. Returns the parsed patch
 * with normalised paths, or the failure {@link applyPatch} would return.
 */
export function preparePatch(text: string): { ok: true; patch: ParsedPatch } | PatchFailure {
  const parsed = parsePatch(text);
  if (!parsed.ok) {
    const { line, expected, found } = parsed.failure;
    const entry = fileFailure(
      null,
      "PATCH_PARSE_FAILED",
      `line ${line}: expected ${expected} but found ${JSON.stringify(found)}`,
    );
    entry.detail.patch_line = line;
    return buildPatchFailure([entry]);
  }
  const { patch } = parsed;
  if (patch.files.length === 0) {
    const message =
      patch.warnings.length > 0
        ? "it only changes file modes, which are not tracked"
        : "it holds no file operation";
    return buildPatchFailure([fileFailure(null, "PATCH_EMPTY", message)]);
  }
  const violations = enforcePathPolicy(patch);
  if (violations.length > 0) return buildPatchFailure(violations);
  const binary = patch.files.filter((file) => file.binary);
  if (binary.length > 0) {
    return buildPatchFailure(
      binary.map((file) =>
        fileFailure(
          file.path,
          "PATCH_BINARY_NOT_SUPPORTED",
          "the patch carries a binary diff for this file",
        ),
      ),
    );
  }
  return { ok: true, patch };
}

/** Every normalised path a prepared patch names: read, written, or considered. */
export function namedPaths(patch: ParsedPatch): string[] {
  const paths = patch.files.flatMap((file) => [file.path, file.targetPath, file.alternatePath]);
  return [...new Set(paths.filter((path): path is string => path !== null))];
}

/**
 * Applies a patch to a workspace, all or nothing, without any I/O: parses it (unified diff or
 * `*** Begin Patch`, fences and prose tolerated), refuses hostile paths before reading a file,
 * places every hunk strictly first and with bounded tolerance after, and never applies an
 * ambiguous or unmatched hunk. On success returns the new text of every touched path (null
 * when removed), the changes and a verification plan; on failure, why — with the nearest
 * matches and the current lines to re-read — and nothing changes.
 */
export function applyPatch(input: ApplyPatchInput): PatchResult {
  const prepared = preparePatch(input.patch);
  if (!prepared.ok) return prepared;
  const patchLines = input.patch.split("\n").length;
  try {
    return withSearchBudget(unitsPerLine * patchLines, () => applyPrepared(input, prepared.patch));
  } catch (error) {
    if (!(error instanceof SearchBudgetExceeded)) throw error;
    return buildPatchFailure([
      fileFailure(
        null,
        "PATCH_TOO_COMPLEX",
        "placing its hunks would take more searching than allowed: send fewer hunks, each with a few exact context lines copied from a fresh read_file_range, rather than many hunks of common lines",
      ),
    ]);
  }
}

function applyPrepared(input: ApplyPatchInput, patch: ParsedPatch): PatchResult {
  const view = new WorkspaceView(input.files);
  const failures: FailureEntry[] = [];
  const log = new ChangeLog();
  const loose: LooseMatch[] = [];
  for (const file of patch.files) {
    // Later sections still run after a failure, so one report lists every problem.
    const outcome = applyFileOperation(view, file, {
      carriesLineEndings: patch.carriesLineEndings,
    });
    if (!outcome.ok) {
      failures.push(...outcome.failures);
      continue;
    }
    for (const change of outcome.changes) log.record(change);
    loose.push(...outcome.loose);
  }
  if (failures.length > 0) return buildPatchFailure(failures);

  const updates = view.updates();
  if (updates.size === 0) {
    return buildPatchFailure([
      fileFailure(
        null,
        "PATCH_EMPTY",
        "applying it would change nothing: its removed and added lines are the same",
      ),
    ]);
  }
  const changes = log
    .list()
    .filter(
      (change) =>
        updates.has(change.path) ||
        (change.from_path !== undefined && updates.has(change.from_path)),
    );
  const touchedLoose = loose.filter((match) => updates.get(match.path) != null);
  return {
    ok: true,
    changes,
    verification_plan: planVerification(changes, updates, touchedLoose, (path) =>
      view.exists(path),
    ),
    updates,
    warnings: patch.warnings,
  };
}
