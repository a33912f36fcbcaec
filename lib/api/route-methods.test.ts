import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const apiRoot = path.resolve(import.meta.dirname, "../../app/api");
const methods = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

function routeFiles(directory: string): string[] {
  return fs.readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return entry.name === "route.ts" ? [full] : [];
  });
}

// Next answers a method a route does not export with an empty 405; PRODUCT §2 wants the error
// envelope and an Allow header, which `otherMethods` gives. A route added without it is caught here.
describe("every API route", () => {
  const files = routeFiles(apiRoot);

  it("finds the routes", () => {
    expect(files.length).toBeGreaterThan(20);
  });

  it.each(files.map((file) => [path.relative(apiRoot, file), file]))(
    "%s answers every method, with the envelope for those it does not serve",
    async (_name, file) => {
      const module = (await import(file)) as Record<string, unknown>;
      for (const method of methods) expect(typeof module[method], method).toBe("function");
    },
  );
});
