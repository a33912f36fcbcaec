/**
 * The coding-agent API's wire shapes (snake_case, PRODUCT.md §2) as the browser sees them.
 * Mirrors lib/api/serializers.ts without importing server code.
 */
export type { ModelInfo, ModelProvider } from "@/lib/models/model-info";

export type RunStatus = "queued" | "running" | "completed" | "failed" | "cancelled";

export interface RunUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
  /** Estimated from the model's list price; null when the price is unknown (e.g. local models). */
  total_cost_usd: number | null;
}

export interface AgentRun {
  id: string;
  app_id: string;
  status: RunStatus;
  input: string;
  requested_model_id: string | null;
  resolved_model_id: string | null;
  execution_engine: string;
  base_revision_id: string | null;
  result_revision_id: string | null;
  output_text: string;
  usage: RunUsage | null;
  error_code: string | null;
  error_message: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

/** One earlier turn sent with a run, replacing the stored conversation (used after /clear). */
export interface ConversationMessage {
  role: "user" | "assistant";
  content: string;
}

export interface CreateRunBody {
  input: string;
  messages?: ConversationMessage[];
  model_id?: string | null;
  engine?: string | null;
  approval_policy?: "ask" | "auto" | null;
}

export const activeRunStatuses: readonly RunStatus[] = ["queued", "running"];

/** True while the run has not reached one of its terminal states. */
export function isActiveRun(run: Pick<AgentRun, "status">): boolean {
  return activeRunStatuses.includes(run.status);
}
