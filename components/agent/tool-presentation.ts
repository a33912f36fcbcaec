import {
  FilePen,
  FilePlus2,
  FileText,
  FolderTree,
  type LucideIcon,
  MonitorCheck,
  Search,
  ShieldCheck,
  Wrench,
} from "lucide-react";

const iconByTool: Record<string, LucideIcon> = {
  read_file_range: FileText,
  workspace_index: FolderTree,
  collect_context: Search,
  apply_patch: FilePen,
  run_verification: ShieldCheck,
  write_file: FilePlus2,
  check_preview: MonitorCheck,
  check_app: MonitorCheck,
};

/** The icon of a tool's row; unknown tools (other engines) get a generic one. */
export function toolIcon(tool: string): LucideIcon {
  return iconByTool[tool] ?? Wrench;
}

/** Tools whose rows carry a diff: their +N −M opens the run's changes. */
export function isEditingTool(tool: string): boolean {
  return tool === "apply_patch" || tool === "write_file";
}

const progressiveVerbs: Record<string, string> = {
  Read: "Reading",
  Edit: "Editing",
  Index: "Indexing",
  Search: "Searching",
  Verify: "Verifying",
  Check: "Checking",
  Write: "Writing",
  Apply: "Applying",
  Create: "Creating",
  Delete: "Deleting",
  Run: "Running",
  List: "Listing",
};

/**
 * The row's title while the call runs: the server's "Read src/App.tsx" becomes
 * "Reading src/App.tsx", so a settled row reads as done and a running one as under way.
 */
export function runningToolTitle(title: string): string {
  const match = /^(\S+)(\s.*)?$/s.exec(title);
  if (!match) return title;
  const verb = progressiveVerbs[match[1]];
  return verb ? `${verb}${match[2] ?? ""}` : title;
}

/** "340 ms", "1.2 s", "2 m 05 s". */
export function formatDuration(milliseconds: number): string {
  if (milliseconds < 1_000) return `${Math.max(0, Math.round(milliseconds))} ms`;
  if (milliseconds < 60_000) {
    const seconds = milliseconds / 1_000;
    return `${seconds < 10 ? seconds.toFixed(1) : Math.round(seconds)} s`;
  }
  const totalSeconds = Math.round(milliseconds / 1_000);
  const minutes = Math.floor(totalSeconds / 60);
  return `${minutes} m ${String(totalSeconds % 60).padStart(2, "0")} s`;
}

/** "TOOL_INPUT_VALIDATION_FAILED" → "Tool input validation failed". */
export function humanizeCode(code: string): string {
  const words = code.toLowerCase().replace(/_/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** "file_count" → "File count". */
export function humanizeKey(key: string): string {
  return humanizeCode(key);
}
