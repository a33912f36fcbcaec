/**
 * The patch engine: applies the unified diffs and `*** Begin Patch` patches models write to a
 * workspace, atomically and never in the wrong place. Pure — the CLI (`cli.ts`) adds the disk.
 */
export { type ApplyPatchInput, applyPatch } from "./apply-patch";
export { isElisionMarker, lazyRewriteProblem } from "./elision-marker";
export { type PatchErrorCode, patchErrorDescriptions } from "./error-codes";
export type {
  LooseMatch,
  MatchTolerance,
  PatchChange,
  PatchFailure,
  PatchFailureDetail,
  PatchFileSource,
  PatchResult,
  PatchSuccess,
  RefreshWindow,
  VerificationCheck,
  VerificationPlan,
} from "./patch-result";
export { maximumPathLength, normalizeWorkspacePath, type PathCheck } from "./path-policy";
