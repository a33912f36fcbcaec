/**
 * How much searching one `applyPatch` call may do. Placing a hunk is cheap when its lines are
 * rare; a patch of many hunks made of common lines ("x", "}", blank) against a huge file could
 * otherwise search for minutes. The budget grows with the patch's and the files' lines, not with
 * their product, and running out refuses the patch with PATCH_TOO_COMPLEX instead of searching on.
 * Module state on purpose: `applyPatch` is synchronous, so one call owns it from start to end.
 */
export class SearchBudgetExceeded extends Error {
  constructor() {
    super("the patch needs more searching than the engine allows");
    this.name = "SearchBudgetExceeded";
  }
}

/** Units every call gets, about a second of line comparisons on a slow core. */
const baseUnits = 20_000_000;
/** Units each line of the patch or of a file it touches adds. */
export const unitsPerLine = 200;

let remaining = Number.POSITIVE_INFINITY;

/** Runs `work` with a fresh budget (nested calls keep their caller's afterwards). */
export function withSearchBudget<T>(extraUnits: number, work: () => T): T {
  const previous = remaining;
  remaining = baseUnits + extraUnits;
  try {
    return work();
  } finally {
    remaining = previous;
  }
}

/** Adds units, e.g. when a file is opened for searching. */
export function grantSearchBudget(units: number): void {
  remaining += units;
}

/** Spends units; throws {@link SearchBudgetExceeded} when the budget runs out. */
export function spendSearchBudget(units: number): void {
  remaining -= units;
  if (remaining < 0) throw new SearchBudgetExceeded();
}
