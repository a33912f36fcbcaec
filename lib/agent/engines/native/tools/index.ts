import type { AgentTool } from "./agent-tool";
import { applyPatchTool } from "./apply-patch";
import { checkPreviewTool } from "./check-preview";
import { collectContextTool } from "./collect-context";
import { readFileRangeTool } from "./read-file-range";
import { runVerificationTool } from "./run-verification";
import { workspaceIndexTool } from "./workspace-index";
import { writeFileTool } from "./write-file";

export type {
  AgentTool,
  ToolContext,
  ToolOutcome,
  VerificationDiagnostic,
  VerificationResult,
} from "./agent-tool";
export { unparsedArgumentsKey, validateToolInput } from "./tool-input";

/** The tools of PRODUCT.md §4, by the names the model sees. */
export const agentTools: Record<string, AgentTool> = {
  read_file_range: readFileRangeTool as AgentTool,
  workspace_index: workspaceIndexTool as AgentTool,
  collect_context: collectContextTool as AgentTool,
  apply_patch: applyPatchTool as AgentTool,
  run_verification: runVerificationTool as AgentTool,
  check_preview: checkPreviewTool as AgentTool,
  write_file: writeFileTool as AgentTool,
};
