import { describe, expect, it } from "vitest";
import { extractPatchLines } from "./extract-patch-lines";
import { isFileHeaderPair, readHunkBody } from "./read-hunk-body";

const read = (text: string) => readHunkBody(extractPatchLines(text), 0);

describe("readHunkBody", () => {
  it("trusts counts that agree with the body and stops where they end", () => {
    const body = read("@@ -1,2 +1,2 @@\n a\n-b\n+c\nprose after\n");
    expect(body?.hunk).toMatchObject({ statedIndex: 0, headerTrusted: true });
    expect(body?.end).toBe(4);
  });

  it("reads by shape when the counts are short, long or missing", () => {
    expect(read("@@ -1,1 +1,1 @@\n a\n-b\n+c\n")?.hunk.lines).toHaveLength(3);
    expect(read("@@ -1,9 +1,9 @@\n a\n-b\n")?.hunk.headerTrusted).toBe(false);
    expect(read("@@\n-b\n+c\n")?.hunk.statedIndex).toBeNull();
  });

  it("places a pure insertion after the header's line when the old count is zero", () => {
    expect(read("@@ -5,0 +6,1 @@\n+x\n")?.hunk.statedIndex).toBe(5);
  });

  it("returns null for a header with no body", () => {
    expect(read("@@ -1 +1 @@\nprose\n")).toBeNull();
  });
});

describe("isFileHeaderPair", () => {
  it("needs --- followed by +++", () => {
    const lines = extractPatchLines("--- a\n+++ b\n--- c\n-d\n");
    expect([0, 1, 2].map((index) => isFileHeaderPair(lines, index))).toEqual([true, false, false]);
  });
});
