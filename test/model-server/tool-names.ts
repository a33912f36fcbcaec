/** The native agent's tool names (PRODUCT.md §4), as the scripted model calls them. */
export const agentTools = {
  readFileRange: "read_file_range",
  workspaceIndex: "workspace_index",
  collectContext: "collect_context",
  applyPatch: "apply_patch",
  runVerification: "run_verification",
  checkPreview: "check_preview",
  writeFile: "write_file",
} as const;
