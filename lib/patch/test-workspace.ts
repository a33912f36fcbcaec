import { applyPatch } from "./apply-patch";
import type { PatchFileSource } from "./patch-result";

/** A small shop workspace the engine tests patch; `undefined` marks a binary file. */
export const workspace = {
  "src/cart.ts":
    "export function total(items) {\n  let sum = 0;\n  for (const item of items) sum += item.price;\n  return sum;\n}\n",
  "src/cart.test.ts": "test('total', () => {});\n",
  "src/util.ts": "export const one = 1;\n",
  "README.md": "# Shop\n",
  "logo.png": undefined,
};

/** A source that records what the engine read. */
export function tracked(entries: Record<string, string | undefined> = workspace) {
  const map = new Map(Object.entries(entries));
  const reads: string[] = [];
  let keyCalls = 0;
  const source: PatchFileSource = {
    get: (path) => {
      reads.push(path);
      return map.get(path);
    },
    has: (path) => {
      reads.push(path);
      return map.has(path);
    },
    keys: () => {
      keyCalls += 1;
      return map.keys();
    },
  };
  return { source, reads, keyCalls: () => keyCalls };
}

/** Applies a patch to the workspace (or the given files). */
export const apply = (patch: string, entries?: Record<string, string | undefined>) =>
  applyPatch({ files: tracked(entries).source, patch });

/** Wraps lines in a `*** Begin Patch` envelope. */
export const beginPatch = (...lines: string[]) =>
  ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");
