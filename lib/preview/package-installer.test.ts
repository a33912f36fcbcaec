import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { starterTemplateFiles } from "@/lib/workspace/starter-template";
import {
  fixturePackages,
  installScriptMarker,
  type LocalNpmRegistry,
  startLocalNpmRegistry,
} from "@/test/support/local-npm-registry";
import { createPreviewBuilder } from "./build-preview";
import { PackageInstaller } from "./package-installer";

const builderRoot = path.resolve(import.meta.dirname, "../..");
let registry: LocalNpmRegistry;
let cacheDirectory: string;
let installer: PackageInstaller;
let builder: ReturnType<typeof createPreviewBuilder>;
let revision = 0;

beforeAll(async () => {
  registry = await startLocalNpmRegistry(fixturePackages);
  cacheDirectory = mkdtempSync(path.join(tmpdir(), "patchwork-packages-"));
  installer = new PackageInstaller({ cacheDirectory, registry: registry.url, timeoutMs: 60_000 });
  builder = createPreviewBuilder({ builderRoot, packageInstaller: installer });
});
afterAll(async () => {
  await builder?.dispose();
  await registry?.close();
});
beforeEach(() => rmSync(installScriptMarker, { force: true }));

function appWith(dependencies: Record<string, string>, app: string) {
  revision += 1;
  return {
    key: `packages-${revision}`,
    files: new Map(
      Object.entries({
        ...starterTemplateFiles,
        "package.json": JSON.stringify({ name: "app", dependencies }),
        "src/App.tsx": app,
      }),
    ),
  };
}

const greetingApp = `import { greeting } from "patchwork-fixture-greeting";
export function App() {
  return <h1>{greeting("Ada")}</h1>;
}
`;

describe("npm packages in the preview", () => {
  it("installs a declared package into the shared cache, never running its install scripts", async () => {
    const first = await builder.build(
      appWith({ "patchwork-fixture-greeting": "^1.0.0", react: "^17.0.0" }, greetingApp),
    );
    expect(first.diagnostics).toEqual([]);
    expect(first.ok).toBe(true);
    expect(first.js).toContain("from an installed package");
    expect(existsSync(installScriptMarker)).toBe(false);
    // React stays the builder's: the declared react@^17 is not installed.
    const key = installer.keyOf({ "patchwork-fixture-greeting": "^1.0.0" });
    const installed = readdirSync(path.join(cacheDirectory, key, "node_modules"));
    expect(installed.filter((name) => !name.startsWith(".")).sort()).toEqual([
      "patchwork-fixture-greeting",
    ]);

    // Another revision (another app, even) with the same set reuses the install.
    const asked = registry.requests.length;
    const second = await builder.build(
      appWith({ "patchwork-fixture-greeting": "^1.0.0" }, `${greetingApp}\n// edited\n`),
    );
    expect(second.ok).toBe(true);
    expect(registry.requests.length).toBe(asked);
  });

  it("gives an installed package that imports React the builder's one copy", async () => {
    const build = await builder.build(
      appWith(
        { "@patchwork-fixtures/use-toggle": "2.1.0" },
        `import { useToggle } from "@patchwork-fixtures/use-toggle";
export function App() {
  const [on, toggle] = useToggle();
  return <button type="button" onClick={toggle}>{on ? "On" : "Off"}</button>;
}
`,
      ),
    );
    expect(build.diagnostics).toEqual([]);
    expect(build.ok).toBe(true);
    // As many copies of React's version string as an app without the package: one React.
    const plain = await builder.build(
      appWith(
        {},
        'import { useState } from "react";\nexport function App() {\n  const [on] = useState(false);\n  return <p>{String(on)}</p>;\n}\n',
      ),
    );
    const versions = (js: string | null) => js?.match(/"19\.\d+\.\d+"/g)?.length ?? 0;
    expect(versions(build.js)).toBeGreaterThan(0);
    expect(versions(build.js)).toBe(versions(plain.js));
  });

  it("names a package npm cannot install, with npm's reason", async () => {
    const build = await builder.build(
      appWith({ "patchwork-fixture-missing": "^1.0.0" }, greetingApp),
    );
    expect(build.ok).toBe(false);
    expect(build.diagnostics).toHaveLength(1);
    expect(build.diagnostics[0]).toMatchObject({ file: "package.json", severity: "error" });
    expect(build.diagnostics[0].message).toContain('"patchwork-fixture-missing@^1.0.0"');
    expect(build.diagnostics[0].message).toMatch(/404/);
  });

  it("refuses versions that are not registry versions before npm runs", async () => {
    const asked = registry.requests.length;
    for (const spec of [
      "file:../../etc",
      "git+https://example.com/x.git",
      "npm:react@18",
      "https://example.com/x.tgz",
    ]) {
      const build = await builder.build(
        appWith({ "patchwork-fixture-greeting": spec }, greetingApp),
      );
      expect(build.ok).toBe(false);
      expect(build.diagnostics[0].message).toContain("is not a registry version");
    }
    const badName = await builder.build(appWith({ "../escape": "1.0.0" }, greetingApp));
    expect(badName.diagnostics[0].message).toContain("is not a valid npm package name");
    expect(registry.requests.length).toBe(asked);
  });
});
