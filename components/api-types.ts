/**
 * The HTTP API's wire shapes (snake_case, as in PRODUCT.md §2), as the browser sees them. Each is
 * the type of what the server's serializer or listing returns (type-only imports: no server code
 * reaches the browser), so a change on the server is a type error here, not a silent drift.
 */
import type {
  AppJson,
  CheckpointJson,
  PreviewStatusJson,
  ProviderSettingJson,
  RevisionJson,
} from "@/lib/api/serializers";
import type { PreviewDiagnostic } from "@/lib/preview/preview-types";
import type {
  FileDiff as WorkspaceFileDiff,
  RevisionDiff as WorkspaceRevisionDiff,
} from "@/lib/workspace/diff-revisions";
import type {
  FileContent as WorkspaceFileContent,
  FileListing as WorkspaceFileListing,
} from "@/lib/workspace/read-files";

export type App = AppJson;

export type FileListing = WorkspaceFileListing;
export type FileEntry = FileListing["files"][number];

/** A file as `GET …/files/{path}` answers it: the raw bytes stay on the server. */
export type FileContent = Omit<WorkspaceFileContent, "bytes">;

export type Revision = RevisionJson;
export type RevisionSource = Revision["source"];

/** `GET /api/apps/{id}/revisions`. */
export interface RevisionList {
  draft_revision_id: string | null;
  /** Newest first. */
  revisions: Revision[];
}

export type FileDiff = WorkspaceFileDiff;
export type FileDiffStatus = FileDiff["status"];
export type RevisionDiff = WorkspaceRevisionDiff;

export type Checkpoint = CheckpointJson;
export type CheckpointKind = Checkpoint["kind"];

export type { PreviewDiagnostic };
export type PreviewStatus = PreviewStatusJson;

/** A model provider on the settings page: where it is configured, its saved key masked. */
export type ProviderSetting = ProviderSettingJson;

/** `POST /api/settings/providers/{provider}/test`. */
export type ProviderCheckResult =
  | { ok: true; endpoint: string; model_count: number | null }
  | { ok: false; endpoint: string | null; problem: string };
