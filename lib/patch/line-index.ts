import { type LineComparison, normalizeLine } from "./line-tolerance";
import { spendSearchBudget } from "./search-budget";

/**
 * A file's lines with, per comparison, their normalised keys and where each key occurs, built
 * on first use. Looking candidates up by a hunk's rarest line keeps a 500-hunk patch on a
 * 20,000-line file fast even when most hunks need searching.
 */
export class LineIndex {
  readonly lines: readonly string[];
  private readonly keysByComparison = new Map<LineComparison, string[]>();
  private readonly positionsByComparison = new Map<LineComparison, Map<string, number[]>>();

  constructor(lines: readonly string[]) {
    this.lines = lines;
  }

  get length(): number {
    return this.lines.length;
  }

  /** Every line's key under a comparison. */
  keys(comparison: LineComparison): string[] {
    let keys = this.keysByComparison.get(comparison);
    if (!keys) {
      keys =
        comparison === "exact"
          ? [...this.lines]
          : this.lines.map((line) => normalizeLine(line, comparison));
      this.keysByComparison.set(comparison, keys);
    }
    return keys;
  }

  /** Ascending positions of the lines whose key is `key`. */
  positions(comparison: LineComparison, key: string): readonly number[] {
    let positions = this.positionsByComparison.get(comparison);
    if (!positions) {
      positions = new Map();
      const keys = this.keys(comparison);
      for (let index = 0; index < keys.length; index += 1) {
        const list = positions.get(keys[index]);
        if (list) list.push(index);
        else positions.set(keys[index], [index]);
      }
      this.positionsByComparison.set(comparison, positions);
    }
    return positions.get(key) ?? [];
  }

  /**
   * Where `wanted` (keys under `comparison`) occurs as a block starting at or after `from`, up to
   * `limit` starts, ascending.
   */
  findBlock(
    comparison: LineComparison,
    wanted: readonly string[],
    from: number,
    limit: number,
  ): number[] {
    const count = wanted.length;
    if (count === 0) return [];
    let rarest = 0;
    let rarestPositions = this.positions(comparison, wanted[0]);
    for (let offset = 1; offset < count && rarestPositions.length > 0; offset += 1) {
      const positions = this.positions(comparison, wanted[offset]);
      if (positions.length < rarestPositions.length) {
        rarest = offset;
        rarestPositions = positions;
      }
    }
    const keys = this.keys(comparison);
    const starts: number[] = [];
    // Positions are ascending: skip those before `from` by bisection, not one by one.
    let low = 0;
    let high = rarestPositions.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (rarestPositions[middle] - rarest < from) low = middle + 1;
      else high = middle;
    }
    for (let candidate = low; candidate < rarestPositions.length; candidate += 1) {
      spendSearchBudget(1);
      const position = rarestPositions[candidate];
      const start = position - rarest;
      if (start < from || start + count > keys.length) continue;
      let matches = true;
      for (let offset = 0; offset < count; offset += 1) {
        if (keys[start + offset] !== wanted[offset]) {
          matches = false;
          break;
        }
      }
      if (matches) {
        starts.push(start);
        if (starts.length >= limit) break;
      }
    }
    return starts;
  }

  /** True when `wanted` matches exactly at `start`. */
  matchesAt(comparison: LineComparison, wanted: readonly string[], start: number): boolean {
    if (start < 0 || start + wanted.length > this.lines.length) return false;
    const keys = comparison === "exact" ? this.lines : this.keys(comparison);
    for (let offset = 0; offset < wanted.length; offset += 1) {
      if (keys[start + offset] !== wanted[offset]) return false;
    }
    return true;
  }
}
