import { describe, expect, it } from "vitest";
import { safeNextPath } from "./safe-next-path";

describe("safeNextPath", () => {
  it.each([
    ["/apps/1?tab=files#x", "/apps/1?tab=files#x"],
    ["/", "/"],
    ["/a/./b/../c", "/a/c"],
    // An encoded slash is not a separator: this is a path on this site, not a host.
    ["/.%2f/evil.example", "/.%2f/evil.example"],
  ])("keeps the same-site path %s", (next, expected) => {
    expect(safeNextPath(next)).toBe(expected);
  });

  it.each([
    "//evil.example/x",
    "/\\evil.example/x",
    "/.//127.0.0.1:3000/x",
    "/..//evil.example/x",
    "/./\\evil.example",
    "/%2e//evil.example",
    "https://evil.example/",
    "javascript:alert(1)",
    "/signin",
    "",
  ])("sends %s home instead of off-site", (next) => {
    expect(safeNextPath(next)).toBe("/");
    expect(new URL(safeNextPath(next), "http://patchwork.invalid").origin).toBe(
      "http://patchwork.invalid",
    );
  });
});
