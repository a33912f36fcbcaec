/** Engine ids, importable without the server-only engine doctor. */
export const engineNames = ["native", "opencode", "codex", "claude-code"] as const;
export type EngineName = (typeof engineNames)[number];
