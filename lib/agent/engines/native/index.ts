import "server-only";
import { checkApp } from "@/lib/agent/runs/app-check";
import { getEnvironment } from "@/lib/env";
import { getLanguageModel } from "@/lib/models";
import { buildPreview } from "@/lib/preview";
import type { CodingEngine, EngineResult, EngineRunInput, EngineSink } from "../engine";
import { coalescingFetch } from "./coalesce-event-stream";
import { runNativeAgent } from "./native-agent";
import { buildSystemPrompt } from "./system-prompt";
import type { ToolContext, VerificationResult } from "./tools";
import { typeCheckWorkspace } from "./type-check";

/**
 * Patchwork's own agent as a {@link CodingEngine}: the AI SDK tool loop over an in-memory overlay
 * of the base revision, with every provider that Patchwork lists, always available.
 */
export const nativeEngine: CodingEngine = {
  id: "native",
  label: "Patchwork agent",
  workspaceForm: "overlay",
  async status() {
    return { id: "native", label: "Patchwork agent", available: true };
  },
  modelUnsupportedReason() {
    return null;
  },
  run: runNativeEngine,
};

async function runNativeEngine(input: EngineRunInput, sink: EngineSink): Promise<EngineResult> {
  if (input.workspace.form !== "overlay") throw new Error("the native engine needs an overlay");
  const environment = getEnvironment();
  const { overlay } = input.workspace;
  const { run } = input;
  let verifications = 0;
  let checks = 0;
  const context: ToolContext = {
    overlay,
    patchFailures: new Map(),
    writeFileUnlocked: new Set(),
    legacyWriteFileEnabled: environment.APPS_CODING_AGENT_ENABLE_LEGACY_WRITE_FILE,
    autoVerifyPatch: environment.APPS_CODING_AGENT_AUTO_VERIFY_PATCH,
    verify: async (): Promise<VerificationResult> => {
      verifications += 1;
      const started = performance.now();
      const files = await overlay.snapshot();
      const [build, typeErrors] = await Promise.all([
        buildPreview({ key: `run:${run.id}:verify:${verifications}`, appId: run.appId, files }),
        typeCheckWorkspace(files),
      ]);
      const diagnostics = [...build.diagnostics, ...typeErrors];
      return {
        ok: build.ok && typeErrors.length === 0,
        diagnostics,
        duration_ms: Math.round(performance.now() - started),
      };
    },
    check: async () => {
      checks += 1;
      return checkApp({
        key: `run:${run.id}:check-tool:${checks}`,
        appId: run.appId,
        files: await overlay.snapshot(),
      });
    },
  };
  const { appName, messages } = input.conversation;
  return runNativeAgent({
    createModel: ({ fetch, textTap }) =>
      getLanguageModel(input.model.id, {
        fetchFor: (format) => {
          const observed = rateLimitObserver(sink, fetch);
          // Gemini streams whole sentences per event, each with running usage: nothing to join.
          return format === "google" ? observed : coalescingFetch(format, observed, textTap);
        },
      }),
    system: buildSystemPrompt({
      appName,
      writeFileAvailable: environment.APPS_CODING_AGENT_ENABLE_LEGACY_WRITE_FILE,
    }),
    messages,
    context,
    sink,
    signal: input.signal,
    maxIterations: input.limits.maxIterations,
    toolTimeoutMs: input.limits.inactivityTimeoutMs,
    modelId: input.model.id,
    maxCostUsd: input.limits.maxCostUsd,
  });
}

/**
 * Wraps fetch to tell the person when the provider rate-limits without saying until when: the AI
 * SDK retries on its own, and without this the run would just look stuck. (A 429 that names its
 * reset never gets here: the provider fetch turns it into a pause of the whole run.)
 */
function rateLimitObserver(
  sink: EngineSink,
  fetch: typeof globalThis.fetch,
): typeof globalThis.fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (response.status === 429) {
      const retryAfter = Number(response.headers.get("retry-after"));
      const resetAt =
        Number.isFinite(retryAfter) && retryAfter > 0
          ? new Date(Date.now() + retryAfter * 1000).toISOString()
          : null;
      await sink.emit("notice", {
        kind: "rate_limit",
        message: resetAt
          ? `The model provider is rate limiting; retrying after ${retryAfter} s.`
          : "The model provider is rate limiting; retrying shortly.",
        data: { reset_at: resetAt, status: 429 },
      });
    }
    return response;
  };
}
