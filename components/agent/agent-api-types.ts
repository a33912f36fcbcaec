/**
 * The coding-agent API's wire shapes (snake_case, PRODUCT.md §2) as the browser sees them: the
 * types of the server's serializers and request schemas (type-only imports, no server code in the
 * browser).
 */
import type { z } from "zod";
import type { createRunBodySchema } from "@/app/api/apps/[appId]/coding-agent/runs/schemas";
import type { RunUsage as StoredRunUsage } from "@/db/schema";
import type { RunJson } from "@/lib/api/serializers";

export type { ModelInfo, ModelProvider } from "@/lib/models/model-info";

export type AgentRun = RunJson;
export type RunStatus = AgentRun["status"];

/** Token counts and the estimated cost (null when the model's price is unknown, e.g. local models). */
export type RunUsage = StoredRunUsage;

export type CreateRunBody = z.input<typeof createRunBodySchema>;

/** One earlier turn sent with a run, replacing the stored conversation (used after /clear). */
export type ConversationMessage = NonNullable<CreateRunBody["messages"]>[number];

export const activeRunStatuses: readonly RunStatus[] = ["queued", "running", "waiting"];

/** True while the run has not reached one of its terminal states. */
export function isActiveRun(run: Pick<AgentRun, "status">): boolean {
  return activeRunStatuses.includes(run.status);
}
