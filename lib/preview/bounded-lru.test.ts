import { describe, expect, it } from "vitest";
import { BoundedLru } from "./bounded-lru";

describe("BoundedLru", () => {
  it("evicts the least recently used entry and reports it", () => {
    const evicted: string[] = [];
    const lru = new BoundedLru<string, number>(2, (_value, key) => evicted.push(key));
    lru.set("a", 1);
    lru.set("b", 2);
    lru.get("a");
    lru.set("c", 3);
    expect(evicted).toEqual(["b"]);
    expect([lru.get("a"), lru.get("b"), lru.get("c")]).toEqual([1, undefined, 3]);
  });

  it("reports a replaced value, not deleted ones, and everything on clear", () => {
    const evicted: number[] = [];
    const lru = new BoundedLru<string, number>(3, (value) => evicted.push(value));
    lru.set("a", 1);
    lru.set("a", 2);
    lru.set("b", 3);
    lru.delete("b");
    lru.clear();
    expect(evicted).toEqual([1, 2]);
    expect(lru.size).toBe(0);
  });
});
