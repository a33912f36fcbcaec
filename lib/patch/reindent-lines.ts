/** Rewrites the indentation of an added line. */
export type Reindent = (line: string) => string;

type Unit = { kind: "tab" } | { kind: "spaces"; width: number };

function leadingWhitespace(line: string): string {
  return /^[ \t]*/.exec(line)?.[0] ?? "";
}

/**
 * The indentation unit a set of leading-whitespace strings is written in: tabs when most start
 * with one; the `prior` space width when every lead fits it; else the widest space width that
 * explains nearly all of them (see below).
 */
function detectUnit(leads: readonly string[], prior: Unit | null = null): Unit | null {
  const indented = leads.filter((lead) => lead.length > 0);
  if (indented.length === 0) return null;
  const tabbed = indented.filter((lead) => lead.startsWith("\t")).length;
  // Half is enough: space-only leads (doc comments, alignment) sit beside tab-indented code.
  if (tabbed * 2 >= indented.length) return { kind: "tab" };
  // The prior fits when every lead is whole levels of it, or one more space (doc comments).
  if (prior?.kind === "spaces" && indented.every((lead) => lead.length % prior.width <= 1))
    return prior;
  // Each width explains whole levels and doc-comment lines (a level plus one space); the widest
  // that explains nearly as many leads as any other wins, so a stray odd lead cannot halve it.
  const widths = [8, 4, 3, 2, 1];
  const explained = widths.map(
    (width) => indented.filter((lead) => lead.length % width <= 1).length,
  );
  const most = Math.max(...explained);
  const width = widths.find((_, position) => explained[position] >= most * 0.9) ?? 1;
  return { kind: "spaces", width };
}

function sameUnit(left: Unit, right: Unit): boolean {
  return (
    left.kind === right.kind &&
    (left.kind === "tab" || left.width === (right as { width: number }).width)
  );
}

/** Indentation as whole levels of a unit plus leftover spaces (the " * " of a doc comment). */
function toLevels(lead: string, unit: Unit): { level: number; rest: number } | null {
  if (unit.kind === "tab") {
    const match = /^(\t*)( *)$/.exec(lead);
    return match ? { level: match[1].length, rest: match[2].length } : null;
  }
  if (!/^ *$/.test(lead)) return null;
  return { level: Math.floor(lead.length / unit.width), rest: lead.length % unit.width };
}

function render(level: number, rest: number, unit: Unit): string {
  return (unit.kind === "tab" ? "\t" : " ".repeat(unit.width)).repeat(level) + " ".repeat(rest);
}

function isBlank(line: string): boolean {
  return line.trim() === "";
}

/**
 * When a hunk matched with its indentation ignored, works out how the patch's indentation maps to
 * the file's from the lines both hold, so added lines can be written the file's way: a constant
 * prefix added or removed (a model that lost or doubled a level), or the same nesting in another
 * unit (two spaces in the patch, tabs in the file). Returns null when the lines agree already or
 * follow no single rule — then added lines stay as the patch wrote them.
 *
 * @param pairs each matched line as [patch text, file text]
 * @param addedLines the hunk's added lines, which must be expressible under the rule
 * @param fileLeads leading whitespace of the file's lines, to learn its unit when the pairs cannot
 */
export function inferReindent(
  pairs: readonly (readonly [string, string])[],
  addedLines: readonly string[],
  fileLeads: () => readonly string[],
): Reindent | null {
  const useful = pairs.filter(([patchLine, fileLine]) => !isBlank(patchLine) && !isBlank(fileLine));
  if (useful.length === 0) return null;
  const leads = useful.map(
    ([patchLine, fileLine]) => [leadingWhitespace(patchLine), leadingWhitespace(fileLine)] as const,
  );
  if (leads.every(([patchLead, fileLead]) => patchLead === fileLead)) return null;
  const added = addedLines.filter((line) => !isBlank(line));
  // The rest of the file shows the unit the patch was most likely written in; the patch's own
  // leads are the other witness. Each is tried, so a stray lead cannot hide the right one.
  const fileWide = detectUnit(fileLeads());
  const patchLeads = [...leads.map(([patchLead]) => patchLead), ...added.map(leadingWhitespace)];
  const patchUnits = [
    detectUnit(patchLeads, fileWide),
    fileWide?.kind === "spaces" ? fileWide : null,
    detectUnit(patchLeads),
  ];
  const fileUnit =
    detectUnit(
      leads.map(([, fileLead]) => fileLead),
      fileWide,
    ) ?? fileWide;
  if (!fileUnit) return shiftByPrefix(leads, added);
  const candidates = patchUnits.filter(
    (unit, position): unit is Unit =>
      unit !== null &&
      patchUnits.findIndex((other) => other !== null && sameUnit(other, unit)) === position,
  );
  // A different unit (spaces for tabs) is converted level by level; the same unit is a shift.
  for (const patchUnit of candidates) {
    if (sameUnit(patchUnit, fileUnit)) continue;
    const converted = convertUnits(leads, added, patchUnit, fileUnit);
    if (converted) return converted;
  }
  return (
    shiftByPrefix(leads, added) ??
    candidates
      .map((patchUnit) => convertUnits(leads, added, patchUnit, fileUnit))
      .find((converted) => converted !== null) ??
    null
  );
}

function shiftByPrefix(
  leads: readonly (readonly [string, string])[],
  added: readonly string[],
): Reindent | null {
  const [firstPatch, firstFile] = leads[0];
  if (firstFile.endsWith(firstPatch)) {
    const prefix = firstFile.slice(0, firstFile.length - firstPatch.length);
    if (leads.every(([patchLead, fileLead]) => fileLead === prefix + patchLead)) {
      return (line) => (isBlank(line) ? line : prefix + line);
    }
  }
  if (firstPatch.endsWith(firstFile)) {
    const prefix = firstPatch.slice(0, firstPatch.length - firstFile.length);
    const expressible = added.every((line) => line.startsWith(prefix));
    if (expressible && leads.every(([patchLead, fileLead]) => patchLead === prefix + fileLead)) {
      return (line) => (line.startsWith(prefix) ? line.slice(prefix.length) : line);
    }
  }
  return null;
}

function convertUnits(
  leads: readonly (readonly [string, string])[],
  added: readonly string[],
  patchUnit: Unit,
  fileUnit: Unit,
): Reindent | null {
  let shift: number | null = null;
  for (const [patchLead, fileLead] of leads) {
    const patchLevels = toLevels(patchLead, patchUnit);
    const fileLevels = toLevels(fileLead, fileUnit);
    if (!patchLevels || !fileLevels || patchLevels.rest !== fileLevels.rest) return null;
    const difference = fileLevels.level - patchLevels.level;
    if (shift === null) shift = difference;
    else if (shift !== difference) return null;
  }
  const levelShift = shift ?? 0;
  if (!added.every((line) => toLevels(leadingWhitespace(line), patchUnit) !== null)) return null;
  return (line) => {
    if (isBlank(line)) return line;
    const lead = leadingWhitespace(line);
    const levels = toLevels(lead, patchUnit);
    if (!levels) return line;
    return (
      render(Math.max(0, levels.level + levelShift), levels.rest, fileUnit) +
      line.slice(lead.length)
    );
  };
}
