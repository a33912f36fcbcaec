/** The diff components, shared by the history drawer and the agent panel. */
export { DiffFile } from "./diff-file";
export { DiffStat } from "./diff-stat";
export { DiffView } from "./diff-view";
export { type DiffHunk, type DiffLine, parseUnifiedDiff } from "./parse-unified-diff";
