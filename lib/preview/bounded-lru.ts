/**
 * A least-recently-used map with a fixed number of entries that tells its owner what it evicts,
 * so evicted esbuild contexts can be disposed instead of leaking a child-process worker.
 */
export class BoundedLru<Key, Value> {
  private readonly entries = new Map<Key, Value>();

  constructor(
    private readonly capacity: number,
    private readonly onEvict: (value: Value, key: Key) => void = () => {},
  ) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError(`capacity must be a positive integer, got ${capacity}`);
    }
  }

  /** Returns the value and marks it most recently used. */
  get(key: Key): Value | undefined {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    // Map keeps insertion order, so re-inserting moves the key to the most recent end.
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  /** Stores the value as most recently used, evicting the oldest entries beyond capacity. */
  set(key: Key, value: Value): void {
    const previous = this.entries.get(key);
    this.entries.delete(key);
    this.entries.set(key, value);
    if (previous !== undefined && previous !== value) this.onEvict(previous, key);
    for (const [oldestKey, oldest] of this.entries) {
      if (this.entries.size <= this.capacity) break;
      this.entries.delete(oldestKey);
      this.onEvict(oldest, oldestKey);
    }
  }

  /** Removes the entry without calling onEvict; the caller owns what it took out. */
  delete(key: Key): boolean {
    return this.entries.delete(key);
  }

  /** Removes every entry, calling onEvict for each. */
  clear(): void {
    const entries = [...this.entries];
    this.entries.clear();
    for (const [key, value] of entries) this.onEvict(value, key);
  }

  get size(): number {
    return this.entries.size;
  }
}
