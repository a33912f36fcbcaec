/**
 * The HTTP API's wire shapes (snake_case, as in PRODUCT.md §2), as the browser sees them.
 * Mirrors lib/api/serializers.ts and the lib/workspace listings without importing server code.
 */

export interface App {
  id: string;
  slug: string;
  name: string;
  created_at: string;
  updated_at: string;
  draft_revision_id: string | null;
  published_revision_id: string | null;
  published_at: string | null;
  /** "/p/{slug}" while published, else null. */
  public_path: string | null;
}

export interface FileEntry {
  path: string;
  size: number;
  hash: string;
}

export interface FileListing {
  revision_id: string;
  files: FileEntry[];
}

export interface FileContent {
  path: string;
  revision_id: string;
  hash: string;
  size: number;
  binary: boolean;
  /** UTF-8 text, or null for binary files. */
  content: string | null;
}

export type RevisionSource = "template" | "manual" | "agent" | "restore" | "import";

export interface Revision {
  id: string;
  app_id: string;
  parent_revision_id: string | null;
  source: RevisionSource;
  run_id: string | null;
  message: string | null;
  file_count: number;
  total_size: number;
  created_at: string;
}

export interface RevisionList {
  draft_revision_id: string | null;
  /** Newest first. */
  revisions: Revision[];
}

export type FileDiffStatus = "added" | "modified" | "deleted";

export interface FileDiff {
  path: string;
  status: FileDiffStatus;
  binary: boolean;
  additions: number;
  deletions: number;
  /** Unified diff text of this one file with ---/+++/@@ lines; empty for binary files. */
  patch: string;
}

export interface RevisionDiff {
  from_revision_id: string | null;
  to_revision_id: string;
  additions: number;
  deletions: number;
  files: FileDiff[];
}

export type CheckpointKind = "pre_run" | "post_run" | "manual";

export interface Checkpoint {
  id: string;
  app_id: string;
  revision_id: string;
  run_id: string | null;
  kind: CheckpointKind;
  label: string;
  created_at: string;
  run_input?: string | null;
}

export interface PreviewDiagnostic {
  file: string | null;
  line: number | null;
  column: number | null;
  message: string;
  severity: "error" | "warning";
}

export interface PreviewStatus {
  revision_id: string;
  ok: boolean;
  diagnostics: PreviewDiagnostic[];
  built_at: string | null;
  duration_ms: number | null;
}
