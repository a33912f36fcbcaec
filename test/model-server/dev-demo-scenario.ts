import type { Scenario, StepContext } from "./scenario";
import { lineReplacementPatch, patchedHeading, starterAppPath } from "./starter-patches";
import { agentTools } from "./tool-names";

/** The `<h1>` found in a read of `src/App.tsx`, with the file lines around it. */
export interface FoundHeading {
  text: string;
  /** Lines of the file around the heading's line, line-number prefixes removed. */
  window: string[];
  /** 1-based position of the heading's line in `window`. */
  lineInWindow: number;
  /** 1-based number of `window[0]` in the file (1 when the read was not numbered). */
  firstLineNumber: number;
}

/** `12: `, `  12 | `, `12\t` or `12→` in front of a line of a numbered read. */
const lineNumberPrefix = /^\s*(\d+)(?:\s*[:|→]\s?|\t)/;

/**
 * Finds the `<h1>` text in whatever a read tool returned (numbered lines in JSON, or plain
 * text). Good enough for a demo; the test scenarios compute their patches from the template.
 */
export function findHeading(toolResults: string): FoundHeading | null {
  // The raw JSON is one long line; the spelled-out file text has real newlines.
  const rawLines = toolResults.split("\n").filter((line) => line.length < 400);
  const numbers = rawLines.map((line) => Number(lineNumberPrefix.exec(line)?.[1] ?? Number.NaN));
  const lines = rawLines.map((line) => line.replace(lineNumberPrefix, ""));
  for (const [index, line] of lines.entries()) {
    if (!line.includes("<h1")) continue;
    const inline = /<h1[^>]*>([^<{}]+)<\/h1>/.exec(line);
    const textIndex = inline ? index : index + 1;
    const text = inline ? inline[1]?.trim() : lines[textIndex]?.trim();
    if (!text || /[<{}]/.test(text)) continue;

    // Context only from lines known to be the file's neighbours: consecutive numbers, or
    // without numbers just the adjacent lines.
    const heading = numbers[textIndex] ?? Number.NaN;
    const isNeighbour = (position: number) =>
      Number.isNaN(heading)
        ? Math.abs(position - textIndex) <= 1
        : numbers[position] === heading + (position - textIndex);
    let first = textIndex;
    while (first > 0 && textIndex - first < 3 && isNeighbour(first - 1)) first--;
    let last = textIndex;
    while (last < lines.length - 1 && last - textIndex < 3 && isNeighbour(last + 1)) last++;
    return {
      text,
      window: lines.slice(first, last + 1),
      lineInWindow: textIndex - first + 1,
      firstLineNumber: Number.isNaN(heading) ? 1 : heading - (textIndex - first),
    };
  }
  return null;
}

/** The heading the person asked for: quoted text, or what follows "say", else a friendly one. */
export function requestedHeading(userText: string, currentHeading: string): string {
  const quoted = /["“”']([^"“”']{1,80})["“”']/.exec(userText)?.[1]?.trim();
  if (quoted) return quoted;
  const said = /\bsays?\s+(.{1,80}?)[.!]?\s*$/i.exec(userText.trim())?.[1]?.trim();
  if (said) return said;
  return currentHeading === patchedHeading ? "Built with Patchwork" : patchedHeading;
}

function patchStep(context: StepContext) {
  const found = findHeading(context.toolResults);
  if (!found) {
    return {
      text: [
        `I couldn't find an <h1> in ${starterAppPath}, `,
        "so I left the app unchanged. ",
        "(This is the scripted demo model; it only knows how to change the heading.)",
      ],
    };
  }
  const heading = requestedHeading(context.lastUserText, found.text);
  const line = found.window[found.lineInWindow - 1] ?? "";
  const patch = lineReplacementPatch({
    source: `${found.window.join("\n")}\n`,
    lineNumber: found.lineInWindow,
    replacement: line.replace(found.text, heading),
    firstLineNumber: found.firstLineNumber,
  });
  return {
    text: ["I'll change the heading ", `from “${found.text}” `, `to “${heading}”.`],
    tool_calls: [{ name: agentTools.applyPatch, arguments: { patch } }],
    delay_ms_between_chunks: 40,
  };
}

function summaryStep(context: StepContext) {
  const failed = /fail|error/i.test(context.toolResults);
  const text = failed
    ? ["The patch did not apply; ", "the tool output above says why. "]
    : ["Done: ", "the heading is updated. ", "Look at the preview. "];
  return {
    text: [
      ...text,
      "(This reply comes from the scripted model server, `npm run dev:model`; no real model ran.)",
    ],
    delay_ms_between_chunks: 40,
  };
}

/**
 * For `npm run dev:model`: reads src/App.tsx, changes the `<h1>` to what the person asked for
 * (quoted text, or "say …"), and summarises, streaming at a readable pace. Stateless like every
 * scenario: each new message replays it against the current file.
 */
export function devDemoScenario(): Scenario {
  return {
    name: "dev-demo",
    description: "Changes the heading to what the message asks for; a demo without a real model.",
    steps: [
      {
        text: ["Let me look at ", `${starterAppPath} `, "first."],
        tool_calls: [{ name: agentTools.readFileRange, arguments: { path: starterAppPath } }],
        delay_ms_between_chunks: 40,
      },
      patchStep,
      summaryStep,
    ],
  };
}
