import { type EditCase, textOf } from "./make-edit";
import type { Random } from "./random";

/**
 * The ways models damage patches that issue 20 names, as perturbations of a real edit's patch:
 * each yields the patch a model would send, the file it is sent against, and what applying it
 * correctly means (the edited text), or that only a refusal is right (a lazy placeholder would
 * delete code; an applied patch must not apply twice).
 */
export const modelFailureCategories = [
  "elided context",
  "lazy placeholder",
  "no hunk header",
  "hunks reordered",
  "hunk repeated",
  "already applied",
  "JSON-escaped",
  "context word off",
] as const;

export type ModelFailureCategory = (typeof modelFailureCategories)[number];

export interface ModelFailureVariant {
  patch: string;
  file: string;
  intended: string | null;
  refusalIntended: boolean;
}

/** The patch text split into its header and each hunk's lines (header line first). */
function splitPatch(patch: string): { header: string[]; hunks: string[][] } {
  const lines = patch.replace(/\n$/, "").split("\n");
  const first = lines.findIndex((line) => line.startsWith("@@"));
  const header = lines.slice(0, first);
  const hunks: string[][] = [];
  for (const line of lines.slice(first)) {
    if (line.startsWith("@@")) hunks.push([line]);
    else hunks[hunks.length - 1].push(line);
  }
  return { header, hunks };
}

const joinPatch = (header: string[], hunks: string[][]) =>
  `${[...header, ...hunks.flat()].join("\n")}\n`;

const indentOf = (text: string) => /^\s*/.exec(text)?.[0] ?? "";

const applies = (edit: EditCase, patch: string): ModelFailureVariant => ({
  patch,
  file: textOf(edit.original),
  intended: textOf(edit.edited),
  refusalIntended: false,
});

type Builder = (edit: EditCase, random: Random) => ModelFailureVariant | null;

/** A run of unchanged lines inside the first hunk becomes `// ... existing code ...`. */
const elidedContext: Builder = (edit, random) => {
  const { header, hunks } = splitPatch(edit.patch);
  const body = hunks[0];
  // Interior context lines: a context line before and after stays to anchor both parts.
  const interior: number[] = [];
  for (let index = 2; index < body.length - 1; index += 1) {
    if (body[index].startsWith(" ") && body[index - 1].startsWith(" ")) interior.push(index);
  }
  const changes = body.findIndex((line) => line.startsWith("-") || line.startsWith("+"));
  const before = interior.filter((index) => index < changes - 1);
  if (before.length === 0) return null;
  const at = random.pick(before);
  const marker = ` ${indentOf(body[at].slice(1))}// ... existing code ...`;
  const damaged = [...body.slice(0, at), marker, ...body.slice(at + 1)];
  return applies(edit, joinPatch(header, [damaged, ...hunks.slice(1)]));
};

/** Context after the change is "removed" and replaced with a placeholder: must be refused. */
const lazyPlaceholder: Builder = (edit) => {
  const { header, hunks } = splitPatch(edit.patch);
  const body = hunks[0];
  const lastChange = body.findLastIndex((line) => line.startsWith("-") || line.startsWith("+"));
  const trailing = body
    .slice(lastChange + 1)
    .filter((line) => line.startsWith(" ") && line.trim() !== "");
  if (trailing.length === 0) return null;
  const kept = body.slice(0, lastChange + 1);
  const removed = body.slice(lastChange + 1).map((line) => `-${line.slice(1)}`);
  const marker = `+${indentOf(trailing[0].slice(1))}// ... existing code ...`;
  return {
    patch: joinPatch(header, [[...kept, ...removed, marker], ...hunks.slice(1)]),
    file: textOf(edit.original),
    intended: null,
    refusalIntended: true,
  };
};

const noHunkHeader: Builder = (edit) => {
  const { header, hunks } = splitPatch(edit.patch);
  if (hunks.length !== 1) return null;
  return applies(edit, joinPatch(header, [hunks[0].slice(1)]));
};

const hunksReordered: Builder = (edit) => {
  const { header, hunks } = splitPatch(edit.patch);
  if (hunks.length < 2) return null;
  return applies(edit, joinPatch(header, [...hunks].reverse()));
};

const hunkRepeated: Builder = (edit) => {
  const { header, hunks } = splitPatch(edit.patch);
  return applies(edit, joinPatch(header, [hunks[0], ...hunks]));
};

const alreadyApplied: Builder = (edit) => ({
  patch: edit.patch,
  file: textOf(edit.edited),
  intended: null,
  refusalIntended: true,
});

const jsonEscaped: Builder = (edit) => applies(edit, JSON.stringify(edit.patch).slice(1, -1));

/** One word of one unchanged line (not next to an added line) is off in the patch. */
const contextWordOff: Builder = (edit, random) => {
  const { header, hunks } = splitPatch(edit.patch);
  const body = hunks[0];
  if (!body.some((line) => line.startsWith("-"))) return null;
  const choices: number[] = [];
  for (let index = 2; index < body.length - 1; index += 1) {
    const line = body[index];
    if (!line.startsWith(" ") || !/[A-Za-z_$][\w$]{3,}/.test(line)) continue;
    if (body[index - 1].startsWith("+") || body[index + 1].startsWith("+")) continue;
    choices.push(index);
  }
  if (choices.length === 0) return null;
  const at = random.pick(choices);
  const damaged = [...body];
  damaged[at] = body[at].replace(/[A-Za-z_$][\w$]{3,}/, (word) => `${word}X`);
  return applies(edit, joinPatch(header, [damaged, ...hunks.slice(1)]));
};

const builders: Record<ModelFailureCategory, Builder> = {
  "elided context": elidedContext,
  "lazy placeholder": lazyPlaceholder,
  "no hunk header": noHunkHeader,
  "hunks reordered": hunksReordered,
  "hunk repeated": hunkRepeated,
  "already applied": alreadyApplied,
  "JSON-escaped": jsonEscaped,
  "context word off": contextWordOff,
};

/** The model-failure variant of an edit for a category, or null when the edit cannot show it. */
export function buildModelFailure(
  category: ModelFailureCategory,
  edit: EditCase,
  random: Random,
): ModelFailureVariant | null {
  return builders[category](edit, random);
}
