import "server-only";
import type { ModelMessage } from "ai";
import type { AgentRunRow, RunUsage } from "@/db/schema";
import type { RunEventPayload } from "@/lib/agent/events/event-payloads";
import type { RunEventType } from "@/lib/agent/events/event-types";
import type { WorkspaceOverlay } from "@/lib/agent/workspace/workspace-overlay";
import type { ModelEndpoint } from "@/lib/models/engine-model";

/**
 * The seam every coding engine plugs into. `executeRun` knows engines only through
 * {@link CodingEngine}: it opens the run's workspace in the form the engine asks for, hands the
 * engine a sink for its events, and turns the workspace's net changes into one revision. Adding an
 * engine is one folder under `lib/agent/engines/` plus one line in the registry.
 */
export interface CodingEngine {
  id: string;
  /** Shown in the engine menu. */
  label: string;
  /**
   * `overlay`: edits an in-memory overlay of the base revision through our own tools (native).
   * `folder`: works in a private folder materialised from the base revision (external CLIs).
   */
  workspaceForm: "overlay" | "folder";
  /** Whether it can run here (binary found, supported version); never throws. */
  status(): Promise<EngineStatus>;
  /** Why this engine cannot use the model, or null when it can (checked at run creation). */
  modelUnsupportedReason(model: EngineModel): string | null;
  /**
   * The model providers it can use, and what it needs in words, so the engine menu can grey it
   * out for a chosen model before a run is tried. Absent: any model.
   */
  models?: { providers: readonly ModelEndpoint["provider"][]; requirement: string };
  /** Runs one turn to its end; throws a RunFailure (or RunCancelled) to fail (or stop) the run. */
  run(input: EngineRunInput, sink: EngineSink): Promise<EngineResult>;
  /** Removes what the engine keeps for an app between runs (stored threads), when it is deleted. */
  removeAppState?(appId: string): Promise<void>;
}

export interface EngineStatus {
  id: string;
  label: string;
  available: boolean;
  /** Why not, when unavailable; always with the command or setting that fixes it. */
  reason?: string;
  /** CODING_AGENT_ENGINE_UNAVAILABLE (missing) or ..._UNSUPPORTED_RUNTIME (wrong version). */
  code?: "CODING_AGENT_ENGINE_UNAVAILABLE" | "CODING_AGENT_ENGINE_UNSUPPORTED_RUNTIME";
  version?: string;
  /** Server-side only (the doctor prints it); never sent to the browser. */
  binaryPath?: string;
  /** Copied from the engine: the providers it can use and what it needs. */
  models?: { providers: readonly ModelEndpoint["provider"][]; requirement: string };
}

/** The pinned model as an engine sees it (see {@link describeModelEndpoint}). */
export type EngineModel = ModelEndpoint;

export interface EngineRunInput {
  run: AgentRunRow;
  model: EngineModel;
  /** The person's words for this turn. */
  input: string;
  /** The compacted prior conversation, for engines starting a fresh session. */
  conversation: { appName: string; messages: ModelMessage[] };
  /** The engine's thread or session id from the previous run on this app, to resume. */
  resumeRef: string | null;
  workspace: EngineWorkspace;
  approvalPolicy: "ask" | "auto";
  signal: AbortSignal;
  limits: EngineLimits;
}

export interface EngineLimits {
  maxIterations: number;
  /** No event from the engine for this long → interrupt, then kill. */
  inactivityTimeoutMs: number;
  /** The whole run. */
  runTimeoutMs: number;
  maxCostUsd: number;
}

/** The run's workspace in the form the engine asked for. */
export type EngineWorkspace =
  | { form: "overlay"; overlay: WorkspaceOverlay }
  | { form: "folder"; directory: string };

/**
 * Where an engine sends what happens. Text deltas take no promise per call (the measured hot
 * path); structured events are awaited so they are stored in order before the engine goes on.
 */
export interface EngineSink {
  text(delta: string): void;
  reasoning(delta: string): void;
  emit<Type extends EngineEventType>(type: Type, payload: RunEventPayload<Type>): Promise<void>;
  /** Resolves once everything sent so far is stored; throws a failed background text write. */
  flush(): Promise<void>;
  /** Stores the engine's thread/session id on the run as soon as it exists (resumable after a kill). */
  recordEngineRunRef(ref: string): Promise<void>;
  /** Records the engine's process group so a restarted server can reap what a dead one left. */
  recordProcess(pid: number | null): Promise<void>;
  /** Shows an approval card and waits for the person (or the timeout, which declines). */
  requestApproval(request: ApprovalRequestInput): Promise<ApprovalDecision>;
  /**
   * Tells the run which call an engine is making, with its arguments, so a model repeating one
   * call is caught: the third identical call in a row is reported to the person, a fourth stops
   * the run with CODING_AGENT_LOOP_DETECTED.
   */
  noteToolCall(tool: string, input: unknown): void;
}

/** The events an engine may send itself; the executor writes the lifecycle and revision ones. */
export type EngineEventType = Exclude<RunEventType, TerminalOrInternalEventType>;

type TerminalOrInternalEventType =
  | "run.accepted"
  | "run.completed"
  | "run.failed"
  | "run.cancelled"
  | "approval.requested"
  | "approval.resolved"
  | "revision.created"
  | "checkpoint.created";

export type ApprovalKind = "command" | "file_change" | "permission";
export type ApprovalDecision = "accept" | "accept_for_session" | "decline";

export interface ApprovalRequestInput {
  kind: ApprovalKind;
  /** One line, e.g. "Edit src/App.tsx" or "Run `npm test`". */
  description: string;
  /** The diff, or the command and its folder. */
  context: { diff?: string; command?: string; cwd?: string; paths?: string[] };
}

export interface EngineResult {
  /** The final assistant text (the sink has already streamed it). */
  text: string;
  usage: Omit<RunUsage, "total_cost_usd"> & { total_cost_usd?: number | null };
  /** The turn cap was reached; the run still lands what it changed. */
  hitIterationLimit: boolean;
}
