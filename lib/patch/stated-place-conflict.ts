import { editSignature, findGappedPlacements } from "./align-with-gaps";
import type { LineIndex } from "./line-index";
import { lineComparisons, normalizeLine } from "./line-tolerance";
import { lineSimilarity } from "./nearest-match";
import type { Hunk } from "./patch-model";

const substance = /[\p{L}\p{N}]/u;
const nearby = 3;

/** The lines at `start` resemble the hunk's: most substantive lines equal, the rest alike. */
function resemblesAt(index: LineIndex, oldLines: readonly string[], start: number): boolean {
  if (start < 0 || start + oldLines.length > index.length) return false;
  const keys = index.keys("unicode-lookalike");
  let substantive = 0;
  let equal = 0;
  let similarity = 0;
  oldLines.forEach((line, offset) => {
    const key = normalizeLine(line, "unicode-lookalike");
    if (substance.test(key)) {
      substantive += 1;
      if (keys[start + offset] === key) equal += 1;
    }
    similarity += lineSimilarity(line, index.lines[start + offset]);
  });
  return substantive > 0 && equal * 2 >= substantive && similarity / oldLines.length >= 0.75;
}

/**
 * True when the place a hunk's header names (`stated`) holds nearly the hunk's lines although
 * the hunk matched somewhere else (`chosen`): the file changed where the patch was aimed, and
 * the other match is a look-alike — a duplicated block, a stale edit. "Nearly" means the lines
 * there resemble the hunk's line by line, or the hunk fits within three lines of it at some
 * tolerance with an edit other than the chosen one (another alignment of the same edit is the
 * same place).
 */
export function statedPlaceRivals(
  index: LineIndex,
  hunk: Hunk,
  oldLines: readonly string[],
  stated: number,
  chosen: { start: number; mapping: readonly number[] },
): boolean {
  if (stated === chosen.start) return false;
  if (resemblesAt(index, oldLines, stated)) return true;
  const chosenEdit = editSignature(hunk, chosen.mapping, chosen.start);
  const identity = (start: number) => oldLines.map((_, offset) => start + offset);
  for (const comparison of lineComparisons) {
    const wanted = oldLines.map((line) => normalizeLine(line, comparison));
    for (let start = stated - nearby; start <= stated + nearby; start += 1) {
      if (!index.matchesAt(comparison, wanted, start)) continue;
      if (editSignature(hunk, identity(start), start) !== chosenEdit) return true;
    }
  }
  const bounds = {
    from: Math.max(0, stated - nearby),
    until: index.length,
    lastStart: stated + nearby,
  };
  return findGappedPlacements(index, hunk, bounds, 3).some(
    (placement) => editSignature(hunk, placement.mapping, placement.start) !== chosenEdit,
  );
}
