/**
 * A small least-recently-used cache weighed by a caller-given size. Used for immutable,
 * content-addressed data (trees, blobs), so entries never go stale — they only get evicted.
 */
export class LruCache<Key, Value> {
  private readonly entries = new Map<Key, { value: Value; weight: number }>();
  private totalWeight = 0;

  constructor(
    private readonly maxWeight: number,
    private readonly weigh: (value: Value) => number = () => 1,
  ) {}

  get(key: Key): Value | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    // Re-insert to mark as most recently used (Map keeps insertion order).
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: Key, value: Value): void {
    const weight = this.weigh(value);
    if (weight > this.maxWeight) return;
    const previous = this.entries.get(key);
    if (previous) {
      this.totalWeight -= previous.weight;
      this.entries.delete(key);
    }
    this.entries.set(key, { value, weight });
    this.totalWeight += weight;
    for (const [oldestKey, oldest] of this.entries) {
      if (this.totalWeight <= this.maxWeight) break;
      this.entries.delete(oldestKey);
      this.totalWeight -= oldest.weight;
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
