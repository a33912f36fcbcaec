import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { packageJsonProblem } from "./app-dependencies";
import type { PreviewDiagnostic } from "./preview-types";

/**
 * Installs the npm packages apps declare into a shared, content-addressed cache: one folder per
 * resolved dependency set (`<cache>/<sha256>/node_modules`), so every app and every revision that
 * declares the same set shares one install, and an install never changes under a build.
 *
 * npm runs in its own process with `--ignore-scripts` (no package's install script ever runs on
 * the server), no peer dependencies (React comes from the builder), a time limit, and no
 * credentials in its environment; the result must stay within a size and a package count.
 */

export interface PackageInstallerOptions {
  /** The cache folder, e.g. `<data dir>/packages`. */
  cacheDirectory: string;
  /** Another registry (a mirror, or a test's local one); npm's default when absent. */
  registry?: string;
  timeoutMs?: number;
  /** Refused above this many bytes on disk. */
  maximumBytes?: number;
  /** Refused above this many installed packages. */
  maximumPackages?: number;
  /** The npm CLI to run (default: `npm` on PATH). */
  npmCommand?: string;
}

export type InstallOutcome =
  | { ok: true; nodeModules: string; installed: boolean; durationMs: number }
  | { ok: false; diagnostics: PreviewDiagnostic[] };

const completeMarker = ".patchwork-complete";

/** The environment npm gets from ours: nothing of Patchwork's, only its own setup. */
const passedVariables = [
  "PATH",
  "HOME",
  "NODE_EXTRA_CA_CERTS",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "http_proxy",
  "https_proxy",
  "no_proxy",
  "npm_config_cafile",
  "npm_config_registry",
  "npm_config_userconfig",
];

export class PackageInstaller {
  private readonly inFlight = new Map<string, Promise<InstallOutcome>>();
  private readonly options: Required<Omit<PackageInstallerOptions, "registry">> & {
    registry?: string;
  };

  constructor(options: PackageInstallerOptions) {
    this.options = {
      timeoutMs: 120_000,
      maximumBytes: 200 * 1024 * 1024,
      maximumPackages: 400,
      npmCommand: "npm",
      ...options,
    };
  }

  /** The cache key of a dependency set: the same set (and registry) is one folder. */
  keyOf(packages: Record<string, string>): string {
    const sorted = Object.entries(packages).sort(([left], [right]) => left.localeCompare(right));
    return createHash("sha256")
      .update(JSON.stringify([this.options.registry ?? "", sorted]))
      .digest("hex")
      .slice(0, 32);
  }

  /** The installed set's node_modules, installing it first when the cache has none. */
  ensure(packages: Record<string, string>): Promise<InstallOutcome> {
    const key = this.keyOf(packages);
    const folder = path.join(this.options.cacheDirectory, key);
    if (existsSync(path.join(folder, completeMarker))) {
      return Promise.resolve({
        ok: true,
        nodeModules: path.join(folder, "node_modules"),
        installed: false,
        durationMs: 0,
      });
    }
    let running = this.inFlight.get(key);
    if (!running) {
      running = this.install(packages, folder).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, running);
    }
    return running;
  }

  private async install(packages: Record<string, string>, folder: string): Promise<InstallOutcome> {
    const startedAt = performance.now();
    const { cacheDirectory } = this.options;
    const staging = path.join(cacheDirectory, `.staging-${randomBytes(6).toString("hex")}`);
    await mkdir(staging, { recursive: true });
    try {
      await writeFile(
        path.join(staging, "package.json"),
        JSON.stringify({ name: "patchwork-app-packages", private: true, dependencies: packages }),
      );
      const npm = await this.runNpm(staging);
      if (!npm.ok) return { ok: false, diagnostics: npmDiagnostics(npm.output, packages, npm.why) };

      const limits = await this.checkLimits(path.join(staging, "node_modules"));
      if (limits) return { ok: false, diagnostics: [limits] };
      await writeFile(path.join(staging, completeMarker), new Date().toISOString());
      try {
        await rename(staging, folder);
      } catch (error) {
        // Another process installed the same set meanwhile: theirs is as good as ours.
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== "ENOTEMPTY" && code !== "EEXIST") throw error;
      }
      return {
        ok: true,
        nodeModules: path.join(folder, "node_modules"),
        installed: true,
        durationMs: performance.now() - startedAt,
      };
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
  }

  private runNpm(
    directory: string,
  ): Promise<{ ok: true } | { ok: false; output: string; why: string }> {
    const args = [
      "install",
      "--ignore-scripts",
      "--no-audit",
      "--no-fund",
      "--no-package-lock",
      "--omit=dev",
      "--omit=optional",
      // Peers such as react are the builder's own; a second copy would break hooks.
      "--legacy-peer-deps",
      "--no-update-notifier",
      "--loglevel=error",
      ...(this.options.registry ? [`--registry=${this.options.registry}`] : []),
    ];
    // Patchwork's own secrets (provider keys, DATABASE_URL, tokens) never reach npm: it gets only
    // what it needs to run and what the operator set up for it (home and ~/.npmrc, certificate
    // authorities, proxies).
    const environment: Record<string, string | undefined> = {
      ...Object.fromEntries(
        passedVariables.flatMap((name) =>
          process.env[name] === undefined ? [] : [[name, process.env[name]]],
        ),
      ),
      npm_config_cache: path.join(this.options.cacheDirectory, ".npm-cache"),
      npm_config_ignore_scripts: "true",
    };
    return new Promise((resolve) => {
      const child = spawn(this.options.npmCommand, args, {
        cwd: directory,
        env: environment as NodeJS.ProcessEnv,
        stdio: ["ignore", "pipe", "pipe"],
        detached: true,
      });
      let output = "";
      const collect = (chunk: Buffer) => {
        if (output.length < 64_000) output += chunk.toString("utf8");
      };
      child.stdout.on("data", collect);
      child.stderr.on("data", collect);
      const timer = setTimeout(() => {
        // The whole group: npm's own children too.
        if (child.pid) process.kill(-child.pid, "SIGKILL");
      }, this.options.timeoutMs);
      child.once("error", (error) => {
        clearTimeout(timer);
        resolve({ ok: false, output: String(error), why: "npm could not be started" });
      });
      child.once("close", (code, signal) => {
        clearTimeout(timer);
        if (code === 0) resolve({ ok: true });
        else
          resolve({
            ok: false,
            output,
            why:
              signal === "SIGKILL"
                ? `npm did not finish within ${Math.round(this.options.timeoutMs / 1000)} s`
                : `npm exited with status ${code}`,
          });
      });
    });
  }

  private async checkLimits(nodeModules: string): Promise<PreviewDiagnostic | null> {
    let bytes = 0;
    let packageCount = 0;
    const walk = async (directory: string, depth: number): Promise<void> => {
      const entries = await readdir(directory, { withFileTypes: true }).catch(() => []);
      for (const entry of entries) {
        const full = path.join(directory, entry.name);
        if (entry.isDirectory()) {
          if (depth === 0 || path.basename(directory) === "node_modules") {
            if (!entry.name.startsWith(".") && !entry.name.startsWith("@")) packageCount += 1;
          }
          await walk(full, depth + 1);
        } else if (entry.isFile()) {
          bytes += (await stat(full)).size;
        }
        if (bytes > this.options.maximumBytes || packageCount > this.options.maximumPackages)
          return;
      }
    };
    await walk(nodeModules, 0);
    if (bytes > this.options.maximumBytes) {
      return packageJsonProblem(
        `The app's packages take more than ${Math.round(this.options.maximumBytes / 1024 / 1024)} MB installed; remove some from package.json.`,
      );
    }
    if (packageCount > this.options.maximumPackages) {
      return packageJsonProblem(
        `The app's packages pull in more than ${this.options.maximumPackages} packages; remove some from package.json.`,
      );
    }
    return null;
  }
}

/**
 * npm's failure as diagnostics that name the package: its `npm error` lines, with the declared
 * package they mention first. npm's output names the registry but never a credential (none is
 * passed to it).
 */
export function npmDiagnostics(
  output: string,
  packages: Record<string, string>,
  why: string,
): PreviewDiagnostic[] {
  const errorLines = output
    .split("\n")
    .map((line) => line.replace(/^npm (?:ERR!|error)\s*/, "").trim())
    .filter((line, index, all) => line !== "" && all.indexOf(line) === index)
    .filter((line) => !/^(A complete log|Log files were not written|code E[A-Z0-9]+$)/.test(line))
    .slice(0, 6);
  const named = Object.keys(packages).filter((name) => output.includes(name));
  const subject =
    named.length > 0
      ? `Could not install ${named.map((name) => `"${name}@${packages[name]}"`).join(", ")}`
      : `Could not install the app's packages (${Object.keys(packages).join(", ")})`;
  const reason = errorLines.length > 0 ? errorLines.join(" — ") : why;
  return [packageJsonProblem(`${subject}: ${reason}`)];
}
