import { starterHeading, starterTemplateFiles } from "@/lib/workspace/starter-template";

/** The file the scripted agent scenarios read and patch. */
export const starterAppPath = "src/App.tsx";

/** The heading the scripted agent scenarios put in place of the starter's. */
export const patchedHeading = "Hello from Patchwork";

/** The starter's `src/App.tsx`, as a new app has it. */
export function starterAppSource(): string {
  const source = starterTemplateFiles[starterAppPath];
  if (source === undefined) throw new Error(`The starter template has no ${starterAppPath}`);
  return source;
}

function contentLines(source: string): string[] {
  const lines = source.split("\n");
  return source.endsWith("\n") ? lines.slice(0, -1) : lines;
}

/** The 1-based number of the line holding `heading`; throws if the source does not have it. */
export function headingLineNumber(source: string, heading: string = starterHeading): number {
  const index = contentLines(source).findIndex((line) => line.includes(heading));
  if (index < 0) throw new Error(`The heading "${heading}" is not in ${starterAppPath}`);
  return index + 1;
}

type PatchFormat = "unified" | "begin-patch";

/** A one-line replacement with `context` lines either side, as a unified diff or `*** Begin Patch`. */
export function lineReplacementPatch({
  source,
  lineNumber,
  replacement,
  format = "unified",
  path = starterAppPath,
  context = 3,
  firstLineNumber = 1,
}: {
  /** The file, or a window of it whose first line is line `firstLineNumber` of the file. */
  source: string;
  /** 1-based, within `source`. */
  lineNumber: number;
  replacement: string;
  format?: PatchFormat;
  path?: string;
  context?: number;
  firstLineNumber?: number;
}): string {
  const lines = contentLines(source);
  const index = lineNumber - 1;
  const start = Math.max(0, index - context);
  const end = Math.min(lines.length - 1, index + context);
  const body: string[] = [];
  for (let position = start; position <= end; position++) {
    if (position === index) body.push(`-${lines[position]}`, `+${replacement}`);
    else body.push(` ${lines[position]}`);
  }
  const count = end - start + 1;
  const fileStart = start + firstLineNumber;
  if (format === "begin-patch") {
    return ["*** Begin Patch", `*** Update File: ${path}`, "@@", ...body, "*** End Patch", ""].join(
      "\n",
    );
  }
  return [
    `--- a/${path}`,
    `+++ b/${path}`,
    `@@ -${fileStart},${count} +${fileStart},${count} @@`,
    ...body,
    "",
  ].join("\n");
}

/** The patch that changes the starter heading to `to`, computed from the current template. */
export function headingPatch({
  source = starterAppSource(),
  from = starterHeading,
  to = patchedHeading,
  format = "unified",
}: {
  source?: string;
  from?: string;
  to?: string;
  format?: PatchFormat;
} = {}): string {
  const lineNumber = headingLineNumber(source, from);
  const line = contentLines(source)[lineNumber - 1] ?? "";
  return lineReplacementPatch({ source, lineNumber, replacement: line.replace(from, to), format });
}

/**
 * A patch as a model with a stale memory of the file writes it: the heading line and the line
 * above it differ from the real file, so it cannot apply.
 */
export function staleHeadingPatch(): string {
  const source = starterAppSource();
  const lineNumber = headingLineNumber(source);
  const lines = contentLines(source);
  const staleHeading = "Welcome to your new app";
  lines[lineNumber - 1] = (lines[lineNumber - 1] ?? "").replace(starterHeading, staleHeading);
  lines[lineNumber - 2] = (lines[lineNumber - 2] ?? "").replace(
    /className="[^"]*"/,
    'className="hero-title"',
  );
  return headingPatch({ source: `${lines.join("\n")}\n`, from: staleHeading });
}
