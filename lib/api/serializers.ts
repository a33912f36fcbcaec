import type {
  AgentRunRow,
  AppRow,
  ApprovalRequestRow,
  CheckpointRow,
  RevisionRow,
} from "@/db/schema";
import type { EngineStatus } from "@/lib/agent/engines/engine";
import type { ProviderSettingView } from "@/lib/models/provider-settings";
import type { PreviewBuild } from "@/lib/preview/preview-types";

/** Wire shapes are snake_case, as in PRODUCT.md; rows never leave the server as they are. */
export function serializeApp(app: AppRow) {
  return {
    id: app.id,
    slug: app.slug,
    name: app.name,
    created_at: app.createdAt.toISOString(),
    updated_at: app.updatedAt.toISOString(),
    draft_revision_id: app.draftRevisionId,
    published_revision_id: app.publishedRevisionId,
    published_at: app.publishedAt?.toISOString() ?? null,
    public_path: app.publishedRevisionId ? `/p/${app.slug}` : null,
  };
}

export function serializeRevision(revision: RevisionRow) {
  return {
    id: revision.id,
    app_id: revision.appId,
    parent_revision_id: revision.parentRevisionId,
    source: revision.source,
    run_id: revision.runId,
    message: revision.message,
    file_count: revision.fileCount,
    total_size: revision.totalSize,
    created_at: revision.createdAt.toISOString(),
  };
}

export function serializeCheckpoint(checkpoint: CheckpointRow & { run_input?: string | null }) {
  return {
    id: checkpoint.id,
    app_id: checkpoint.appId,
    revision_id: checkpoint.revisionId,
    run_id: checkpoint.runId,
    kind: checkpoint.kind,
    label: checkpoint.label,
    created_at: checkpoint.createdAt.toISOString(),
    ...(checkpoint.run_input === undefined ? {} : { run_input: checkpoint.run_input }),
  };
}

export function serializeRun(run: AgentRunRow) {
  return {
    id: run.id,
    app_id: run.appId,
    status: run.status,
    input: run.input,
    requested_model_id: run.requestedModelId,
    resolved_model_id: run.resolvedModelId,
    execution_engine: run.executionEngine,
    approval_policy: run.approvalPolicy,
    engine_run_ref: run.engineRunRef,
    base_revision_id: run.baseRevisionId,
    result_revision_id: run.resultRevisionId,
    output_text: run.outputText,
    usage: run.usage,
    error_code: run.errorCode,
    error_message: run.errorMessage,
    created_at: run.createdAt.toISOString(),
    started_at: run.startedAt?.toISOString() ?? null,
    finished_at: run.finishedAt?.toISOString() ?? null,
    /** While `waiting`: when the provider's rate limit resets and the run goes on. */
    resume_at: run.status === "waiting" ? (run.resumeAt?.toISOString() ?? null) : null,
  };
}

export function serializeApprovalRequest(request: ApprovalRequestRow) {
  return {
    id: request.id,
    run_id: request.runId,
    kind: request.kind,
    description: request.description,
    context: request.context,
    decision: request.decision,
    decided_by: request.decidedBy,
    decided_at: request.decidedAt?.toISOString() ?? null,
    created_at: request.createdAt.toISOString(),
  };
}

export type ApprovalRequestJson = ReturnType<typeof serializeApprovalRequest>;
export type AppJson = ReturnType<typeof serializeApp>;
export type RevisionJson = ReturnType<typeof serializeRevision>;
export type CheckpointJson = ReturnType<typeof serializeCheckpoint>;
export type RunJson = ReturnType<typeof serializeRun>;

/** A revision's preview build status, as `GET /api/apps/{id}/preview` answers it. */
export function serializePreviewStatus(revisionId: string, build: PreviewBuild) {
  return {
    revision_id: revisionId,
    ok: build.ok,
    diagnostics: build.diagnostics,
    built_at: build.builtAt,
    duration_ms: Math.round(build.durationMs),
  };
}

export type PreviewStatusJson = ReturnType<typeof serializePreviewStatus>;

/** An engine as GET /api/engines answers it: where its binary lives stays on the server. */
export function serializeEngineStatus(status: EngineStatus) {
  return {
    id: status.id,
    label: status.label,
    available: status.available,
    reason: status.reason ?? null,
    code: status.code ?? null,
    version: status.version ?? null,
    model_providers: status.models ? [...status.models.providers] : null,
    model_requirement: status.models?.requirement ?? null,
  };
}

export type EngineStatusJson = ReturnType<typeof serializeEngineStatus>;

/** A provider's settings as the settings page shows them: never the key, at most its last four. */
export function serializeProviderSetting(view: ProviderSettingView) {
  return {
    provider: view.provider,
    display_name: view.displayName,
    key_variable: view.keyVariable,
    source: view.source,
    overridden_by_environment: view.overriddenByEnvironment,
    base_url: view.baseUrl,
    saved: view.saved
      ? {
          has_key: view.saved.hasKey,
          key_hint: view.saved.keyHint ? `…${view.saved.keyHint}` : null,
          base_url: view.saved.baseUrl,
          models: view.saved.models,
          updated_at: view.saved.updatedAt.toISOString(),
          problem: view.saved.problem,
        }
      : null,
  };
}

export type ProviderSettingJson = ReturnType<typeof serializeProviderSetting>;
