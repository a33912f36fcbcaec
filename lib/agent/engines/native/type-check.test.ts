import { describe, expect, it } from "vitest";
import { starterTemplateFiles } from "@/lib/workspace/starter-template";
import { typeCheckWorkspace } from "./type-check";

const starter = new Map(Object.entries(starterTemplateFiles));

describe("typeCheckWorkspace", () => {
  it("finds no errors in the starter template", async () => {
    expect(await typeCheckWorkspace(starter)).toEqual([]);
  });

  it("reports a type error with the app's file, line and column", async () => {
    const files = new Map(starter);
    files.set("src/broken.ts", 'export const count: number = "three";\n');
    const diagnostics = await typeCheckWorkspace(files);
    expect(diagnostics).toEqual([
      expect.objectContaining({
        file: "src/broken.ts",
        line: 1,
        column: 14,
        severity: "error",
        message: expect.stringContaining("TS2322"),
      }),
    ]);
  });

  it("reports a wrong prop on an imported component", async () => {
    const files = new Map(starter);
    files.set(
      "src/Badge.tsx",
      "export function Badge({ label }: { label: string }) {\n  return <span>{label}</span>;\n}\n",
    );
    files.set(
      "src/Use.tsx",
      'import { Badge } from "./Badge";\nexport const element = <Badge text="x" />;\n',
    );
    const diagnostics = await typeCheckWorkspace(files);
    expect(diagnostics.map((diagnostic) => diagnostic.file)).toEqual(["src/Use.tsx"]);
  });

  it("does not report a package the app declares in package.json as missing; an undeclared one is", async () => {
    const files = new Map(starter);
    files.set("src/when.ts", 'import dayjs from "dayjs";\nexport const now = dayjs();\n');
    const undeclared = await typeCheckWorkspace(files);
    expect(undeclared.map((diagnostic) => diagnostic.message)).toEqual([
      expect.stringContaining("TS2307"),
    ]);
    files.set("package.json", JSON.stringify({ dependencies: { dayjs: "^1.11.0" } }));
    expect(await typeCheckWorkspace(files)).toEqual([]);
  });
});
