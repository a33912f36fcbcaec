import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

/** A package the local registry serves: its package.json fields and its files. */
export interface FixturePackage {
  name: string;
  version: string;
  /** Extra package.json fields (main, type, scripts, peerDependencies…). */
  manifest?: Record<string, unknown>;
  files: Record<string, string>;
}

export interface LocalNpmRegistry {
  url: string;
  /** Package names asked for (packuments and tarballs), in order. */
  requests: string[];
  close(): Promise<void>;
}

/**
 * A tiny npm registry on 127.0.0.1 for hermetic tests: packuments and tarballs of fixture
 * packages, made with the system `tar` the way `npm pack` lays them out (`package/…`). Real npm
 * installs from it; anything else answers 404 as the registry does.
 */
export async function startLocalNpmRegistry(packages: FixturePackage[]): Promise<LocalNpmRegistry> {
  const workDirectory = mkdtempSync(path.join(tmpdir(), "patchwork-registry-"));
  const tarballs = new Map<string, Buffer>();
  for (const fixture of packages) {
    const folder = path.join(
      workDirectory,
      `${fixture.name.replace("/", "__")}-${fixture.version}`,
    );
    const packageFolder = path.join(folder, "package");
    mkdirSync(packageFolder, { recursive: true });
    const manifest = { name: fixture.name, version: fixture.version, ...fixture.manifest };
    writeFileSync(path.join(packageFolder, "package.json"), JSON.stringify(manifest, null, 2));
    for (const [file, content] of Object.entries(fixture.files)) {
      mkdirSync(path.dirname(path.join(packageFolder, file)), { recursive: true });
      writeFileSync(path.join(packageFolder, file), content);
    }
    const tarball = path.join(folder, "package.tgz");
    execFileSync("tar", ["-czf", tarball, "-C", folder, "package"]);
    tarballs.set(`${fixture.name}@${fixture.version}`, readFileSync(tarball));
  }

  const requests: string[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://registry");
    const pathname = decodeURIComponent(url.pathname.slice(1));
    const tarballMatch = /^(.+)\/-\/[^/]+-(\d[^/]*)\.tgz$/.exec(pathname);
    if (tarballMatch) {
      requests.push(tarballMatch[1]);
      const body = tarballs.get(`${tarballMatch[1]}@${tarballMatch[2]}`);
      if (!body) return notFound(response);
      response.writeHead(200, { "content-type": "application/octet-stream" });
      return response.end(body);
    }
    requests.push(pathname);
    const versions = packages.filter((fixture) => fixture.name === pathname);
    if (versions.length === 0) return notFound(response);
    const base = `http://${request.headers.host}`;
    const packument = {
      name: pathname,
      "dist-tags": { latest: versions.at(-1)?.version },
      versions: Object.fromEntries(
        versions.map((fixture) => {
          const body = tarballs.get(`${fixture.name}@${fixture.version}`) as Buffer;
          const baseName = fixture.name.split("/").at(-1);
          return [
            fixture.version,
            {
              name: fixture.name,
              version: fixture.version,
              ...fixture.manifest,
              dist: {
                tarball: `${base}/${fixture.name}/-/${baseName}-${fixture.version}.tgz`,
                shasum: createHash("sha1").update(body).digest("hex"),
                integrity: `sha512-${createHash("sha512").update(body).digest("base64")}`,
              },
            },
          ];
        }),
      ),
    };
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify(packument));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function notFound(response: import("node:http").ServerResponse): void {
  response.writeHead(404, { "content-type": "application/json" });
  response.end(JSON.stringify({ error: "Not found" }));
}

/** The file an install script of the fixtures would write; it must never exist. */
export const installScriptMarker = path.join(tmpdir(), "patchwork-fixture-install-script-ran");

/** Packages for the preview's package tests. */
export const fixturePackages: FixturePackage[] = [
  {
    name: "patchwork-fixture-greeting",
    version: "1.0.0",
    manifest: {
      type: "module",
      main: "index.js",
      scripts: {
        install: `node -e "require('fs').writeFileSync(${JSON.stringify(installScriptMarker)}, 'install')"`,
        postinstall: `node -e "require('fs').writeFileSync(${JSON.stringify(installScriptMarker)}, 'postinstall')"`,
      },
    },
    files: {
      "index.js":
        'export function greeting(name) {\n  return "Hello, " + name + ", from an installed package";\n}\n',
    },
  },
  {
    name: "@patchwork-fixtures/use-toggle",
    version: "2.1.0",
    manifest: {
      type: "module",
      main: "index.js",
      peerDependencies: { react: ">=18" },
    },
    files: {
      "index.js":
        'import { useState } from "react";\nexport function useToggle(initial = false) {\n  const [on, setOn] = useState(initial);\n  return [on, () => setOn((value) => !value)];\n}\n',
    },
  },
];
