export { createApp, deleteApp, getApp, listApps, makeSlug, renameApp } from "./apps";
export { createCheckpoint, listCheckpoints, restoreCheckpoint } from "./checkpoints";
export {
  commitDetachedRevision,
  commitRevision,
  getDraftRevision,
  restoreRevision,
} from "./commit-revision";
export { decodeText, sha256Hex } from "./content";
export { diffFile, diffRevisions } from "./diff-revisions";
export type { FileChange } from "./file-changes";
export { applyFileOperations, type FileOperation, folderPlaceholder } from "./file-operations";
export { exportGitRepository } from "./git-export";
export { workspaceLimits } from "./limits";
export { type LandRevisionResult, landRevision, mergeText } from "./merge-revision";
export { normalizeWorkspacePath, workspacePathProblem } from "./paths";
export { getPublishedApp, publishApp, unpublishApp } from "./publish";
export { listFiles, loadBlobs, readAllFiles, readFile, resolveRevision } from "./read-files";
export { loadManifest } from "./tree-store";
export { exportZip, importZip } from "./zip-transfer";
