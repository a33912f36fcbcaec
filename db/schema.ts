import { type InferInsertModel, type InferSelectModel, sql } from "drizzle-orm";
import {
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

/** Raw bytes; postgres.js hands back a Buffer and PGlite a Uint8Array — both are Uint8Array. */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => "bytea",
  toDriver: (value) => value,
  fromDriver: (value) =>
    value instanceof Uint8Array ? value : new Uint8Array(value as ArrayBuffer),
});

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();

export const app = pgTable("app", {
  id: uuid("id").primaryKey().defaultRandom(),
  slug: text("slug").notNull().unique(),
  name: text("name").notNull(),
  createdAt: createdAt(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  draftRevisionId: uuid("draft_revision_id"),
  publishedRevisionId: uuid("published_revision_id"),
  publishedAt: timestamp("published_at", { withTimezone: true }),
});

/** Content-addressed file bytes: one row per distinct sha256, shared by every app and revision. */
export const blob = pgTable("blob", {
  hash: text("hash").primaryKey(),
  bytes: bytea("bytes").notNull(),
  size: integer("size").notNull(),
  createdAt: createdAt(),
});

export type TreeEntry =
  | { type: "file"; hash: string; size: number }
  | { type: "directory"; hash: string; size: number; files: number };

/**
 * One directory of a manifest, content-addressed like git's tree objects. A revision's manifest
 * is the tree under its root hash, so a one-file change stores only the directories on its path
 * and storage grows with changed bytes, not with app size × revisions.
 */
export const tree = pgTable("tree", {
  hash: text("hash").primaryKey(),
  entries: jsonb("entries").$type<Record<string, TreeEntry>>().notNull(),
  createdAt: createdAt(),
});

export const revisionSources = ["template", "manual", "agent", "restore", "import"] as const;
export type RevisionSource = (typeof revisionSources)[number];

export const revision = pgTable(
  "revision",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    appId: uuid("app_id")
      .notNull()
      .references(() => app.id, { onDelete: "cascade" }),
    parentRevisionId: uuid("parent_revision_id"),
    rootTreeHash: text("root_tree_hash").notNull(),
    fileCount: integer("file_count").notNull(),
    totalSize: integer("total_size").notNull(),
    source: text("source").$type<RevisionSource>().notNull(),
    runId: uuid("run_id"),
    message: text("message").notNull().default(""),
    createdAt: createdAt(),
  },
  (table) => [index("revision_app_created_idx").on(table.appId, table.createdAt)],
);

export const checkpointKinds = ["pre_run", "post_run", "manual"] as const;
export type CheckpointKind = (typeof checkpointKinds)[number];

export const checkpoint = pgTable(
  "checkpoint",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    appId: uuid("app_id")
      .notNull()
      .references(() => app.id, { onDelete: "cascade" }),
    revisionId: uuid("revision_id")
      .notNull()
      .references(() => revision.id, { onDelete: "cascade" }),
    runId: uuid("run_id"),
    kind: text("kind").$type<CheckpointKind>().notNull(),
    label: text("label").notNull().default(""),
    createdAt: createdAt(),
  },
  (table) => [index("checkpoint_app_created_idx").on(table.appId, table.createdAt)],
);

export const runStatuses = [
  "queued",
  "running",
  "waiting",
  "completed",
  "failed",
  "cancelled",
] as const;
export type RunStatus = (typeof runStatuses)[number];

export interface RunUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
  total_cost_usd: number | null;
}

export const agentRun = pgTable(
  "agent_run",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    appId: uuid("app_id")
      .notNull()
      .references(() => app.id, { onDelete: "cascade" }),
    status: text("status").$type<RunStatus>().notNull().default("queued"),
    input: text("input").notNull(),
    messages: jsonb("messages").$type<unknown[] | null>(),
    requestedModelId: text("requested_model_id"),
    resolvedModelId: text("resolved_model_id"),
    executionEngine: text("execution_engine").notNull().default("native"),
    engineRunRef: text("engine_run_ref"),
    /** `ask`: every file change and command waits for the person; `auto`: file changes inside the workspace go ahead. */
    approvalPolicy: text("approval_policy").$type<ApprovalPolicy>().notNull().default("ask"),
    /** The external engine's process group while it runs, so a restarted server can reap it. */
    enginePid: integer("engine_pid"),
    baseRevisionId: uuid("base_revision_id"),
    resultRevisionId: uuid("result_revision_id"),
    outputText: text("output_text").notNull().default(""),
    usage: jsonb("usage").$type<RunUsage | null>(),
    errorCode: text("error_code"),
    errorMessage: text("error_message"),
    cancelRequestedAt: timestamp("cancel_requested_at", { withTimezone: true }),
    /** The process executing the run (its lease); null while queued or waiting. */
    leaseOwner: text("lease_owner"),
    /** The lease ends here unless its owner heartbeats; then anyone may reclaim the run. */
    leaseExpiresAt: timestamp("lease_expires_at", { withTimezone: true }),
    /** While `waiting`: when the rate limit resets and the run resumes. */
    resumeAt: timestamp("resume_at", { withTimezone: true }),
    /** While `waiting` and after: the run's work so far, kept as a revision off the draft head. */
    pausedRevisionId: uuid("paused_revision_id"),
    createdAt: createdAt(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (table) => [
    index("agent_run_app_created_idx").on(table.appId, table.createdAt),
    index("agent_run_status_idx").on(table.status),
    // The database itself guarantees one active run per app, whichever process creates it.
    uniqueIndex("agent_run_one_active_per_app_idx")
      .on(table.appId)
      .where(sql`${table.status} in ('queued', 'running', 'waiting')`),
    index("agent_run_lease_idx").on(table.leaseExpiresAt),
  ],
);

export type ApprovalPolicy = "ask" | "auto";
export type ApprovalKind = "command" | "file_change" | "permission";
export type ApprovalDecisionValue = "accept" | "accept_for_session" | "decline";

/** One question an engine asked the person during a run (PRODUCT.md §1). */
export const approvalRequest = pgTable(
  "approval_request",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    runId: uuid("run_id")
      .notNull()
      .references(() => agentRun.id, { onDelete: "cascade" }),
    kind: text("kind").$type<ApprovalKind>().notNull(),
    description: text("description").notNull(),
    context: jsonb("context").$type<Record<string, unknown>>().notNull(),
    /** Null while pending. A timeout is stored as a decline by `timeout`. */
    decision: text("decision").$type<ApprovalDecisionValue>(),
    /** `user`, `policy` or `timeout`. */
    decidedBy: text("decided_by"),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [index("approval_request_run_idx").on(table.runId, table.createdAt)],
);

export type ApprovalRequestRow = typeof approvalRequest.$inferSelect;

export const runEvent = pgTable(
  "run_event",
  {
    runId: uuid("run_id")
      .notNull()
      .references(() => agentRun.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    type: text("type").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.runId, table.seq] })],
);

/**
 * A signed-in browser. The cookie holds a random secret; only its sha256 is stored, so a leaked
 * database row cannot be replayed as a cookie. Sign-out revokes a row; "everywhere" revokes all.
 */
export const session = pgTable(
  "session",
  {
    idHash: text("id_hash").primaryKey(),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    userAgent: text("user_agent"),
  },
  (table) => [index("session_expires_idx").on(table.expiresAt)],
);

export const providerSettingIds = ["openai", "anthropic", "google", "compatible"] as const;
export type ProviderSettingId = (typeof providerSettingIds)[number];

/**
 * A model provider added from the settings page, one row per provider. The key is stored only
 * encrypted (AES-256-GCM, `lib/secrets/secret-box.ts`, bound to the provider's id) with its last
 * four characters kept apart to show it masked. The environment's variables win over a row.
 */
export const providerSetting = pgTable("provider_setting", {
  provider: text("provider").$type<ProviderSettingId>().primaryKey(),
  apiKeyCiphertext: text("api_key_ciphertext"),
  apiKeyHint: text("api_key_hint"),
  /** OpenAI-compatible endpoints: the `/v1` base and, optionally, the models to offer. */
  baseUrl: text("base_url"),
  models: text("models"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export type AppRow = InferSelectModel<typeof app>;
export type BlobRow = InferSelectModel<typeof blob>;
export type TreeRow = InferSelectModel<typeof tree>;
export type RevisionRow = InferSelectModel<typeof revision>;
export type CheckpointRow = InferSelectModel<typeof checkpoint>;
export type AgentRunRow = InferSelectModel<typeof agentRun>;
export type NewAgentRunRow = InferInsertModel<typeof agentRun>;
export type RunEventRow = InferSelectModel<typeof runEvent>;
export type SessionRow = InferSelectModel<typeof session>;
export type ProviderSettingRow = InferSelectModel<typeof providerSetting>;
