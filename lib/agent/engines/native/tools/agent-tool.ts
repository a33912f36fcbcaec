import type { z } from "zod";
import type { AppCheck } from "@/lib/agent/runs/app-check";
import type { WorkspaceOverlay } from "@/lib/agent/workspace/workspace-overlay";

export interface VerificationDiagnostic {
  file: string | null;
  line: number | null;
  column: number | null;
  message: string;
  severity: "error" | "warning";
}

export interface VerificationResult {
  ok: boolean;
  diagnostics: VerificationDiagnostic[];
  duration_ms: number;
}

/** What a tool may touch: the run's overlay and a few run-scoped counters. */
export interface ToolContext {
  overlay: WorkspaceOverlay;
  /** Failed patches per file in this run, for the re-read advice and the write_file fallback. */
  patchFailures: Map<string, number>;
  /** Files for which write_file has been offered after repeated patch failures. */
  writeFileUnlocked: Set<string>;
  legacyWriteFileEnabled: boolean;
  autoVerifyPatch: boolean;
  verify(): Promise<VerificationResult>;
  /** Bundle, type-check and load the app in Chromium (check_preview). */
  check(): Promise<AppCheck>;
}

export type ToolOutcome =
  | { ok: true; summary: string; output: unknown; details?: Record<string, unknown> }
  | {
      ok: false;
      code: string;
      message: string;
      output: unknown;
      details?: Record<string, unknown>;
    };

/** A tool of the native agent: its schema validates input before `execute` ever runs. */
export interface AgentTool<Schema extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  inputSchema: Schema;
  /** A human title for the tool row, e.g. "Edit src/App.tsx". */
  title(input: z.infer<Schema>): string;
  /** `signal` aborts at the tool's time limit or when the run stops; long work must heed it. */
  execute(input: z.infer<Schema>, context: ToolContext, signal: AbortSignal): Promise<ToolOutcome>;
}

export function defineTool<Schema extends z.ZodType>(tool: AgentTool<Schema>): AgentTool<Schema> {
  return tool;
}
