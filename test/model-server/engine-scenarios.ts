import { starterHeading } from "@/lib/workspace/starter-template";
import type { Scenario } from "./scenario";
import { headingPatch, patchedHeading, starterAppPath } from "./starter-patches";

/**
 * Scenarios for the external engines (Codex first): they speak the engines' own tools — Codex's
 * freeform `apply_patch` takes the `*** Begin Patch` text as its input — and are served over the
 * Responses API as well as chat completions.
 */
export function engineScenarios(): Scenario[] {
  const editHeading = {
    text: ["I'll change the heading."],
    tool_calls: [
      { name: "apply_patch", arguments: { input: headingPatch({ format: "begin-patch" }) } },
    ],
  };
  const openCodeEdit = [
    {
      text: ["Reading the app."],
      tool_calls: [{ name: "read", arguments: { filePath: starterAppPath } }],
    },
    {
      text: ["I'll change the heading."],
      tool_calls: [
        {
          name: "edit",
          arguments: {
            filePath: starterAppPath,
            oldString: starterHeading,
            newString: patchedHeading,
          },
        },
      ],
    },
  ];
  const claudeEdit = [
    {
      text: ["Reading the app."],
      tool_calls: [{ name: "Read", arguments: { file_path: starterAppPath } }],
    },
    {
      text: ["I'll change the heading."],
      tool_calls: [
        {
          name: "Edit",
          arguments: {
            file_path: starterAppPath,
            old_string: starterHeading,
            new_string: patchedHeading,
          },
        },
      ],
    },
  ];
  return [
    {
      name: "claude-edit-heading",
      description:
        "Claude Code: Read the app, one Edit that changes the heading, then a short reply.",
      steps: [...claudeEdit, { text: ["Changed the heading."] }],
    },
    {
      name: "claude-edit-then-wait",
      description: "Claude Code: the heading edit, then a reply that never finishes (for Stop).",
      steps: [...claudeEdit, { text: ["Checking "], hang: true }],
    },
    {
      name: "codex-edit-heading",
      description: "Codex: one apply_patch that changes the starter's heading, then a short reply.",
      steps: [editHeading, { text: ["Changed the heading."] }],
    },
    {
      name: "codex-edit-then-wait",
      description:
        "Codex: the heading edit, then a reply that streams a word and never finishes (for Stop).",
      steps: [editHeading, { text: ["Checking "], hang: true }],
    },
    {
      name: "opencode-edit-heading",
      description: "OpenCode: read the app, one edit that changes the heading, then a short reply.",
      steps: [...openCodeEdit, { text: ["Changed the heading."] }],
    },
    {
      name: "opencode-edit-then-wait",
      description: "OpenCode: the heading edit, then a reply that never finishes (for Stop).",
      steps: [...openCodeEdit, { text: ["Checking "], hang: true }],
    },
    {
      name: "codex-hang",
      description: "Codex: a first answer that never starts (for watchdogs and Stop).",
      steps: [{ hang: true }],
    },
  ];
}
