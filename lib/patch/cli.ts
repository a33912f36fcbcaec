import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { applyPatch, namedPaths, preparePatch } from "./apply-patch";
import { DirectoryFileSource, symbolicLinkOnPath } from "./directory-file-source";
import { buildPatchFailure, fileFailure } from "./patch-failure";
import type { PatchResult } from "./patch-result";
import { writeUpdates } from "./write-updates";

const usage = "usage: npm run patch -- --dir <folder> <patch-file | -> [--dry-run]";

export interface CliStreams {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  stdin: () => string;
}

const processStreams: CliStreams = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stdin: () => fs.readFileSync(0, "utf8"),
};

interface CliArguments {
  directory: string;
  patchFile: string;
  dryRun: boolean;
}

function parseArguments(argv: readonly string[]): CliArguments | string {
  let directory: string | undefined;
  let patchFile: string | undefined;
  let dryRun = false;
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index];
    if (argument === "--dir") directory = argv[++index];
    else if (argument.startsWith("--dir=")) directory = argument.slice("--dir=".length);
    else if (argument === "--dry-run") dryRun = true;
    else if (argument.startsWith("--") && argument !== "--") return `unknown option ${argument}`;
    else if (argument !== "--") {
      if (patchFile !== undefined) return `unexpected argument ${argument}`;
      patchFile = argument;
    }
  }
  if (!directory) return "--dir <folder> is required";
  if (!patchFile) return "a patch file (or - for standard input) is required";
  return { directory, patchFile, dryRun };
}

/** Relative paths are the caller's: `npm run` moves to the project root but keeps INIT_CWD. */
function fromCaller(relative: string): string {
  return path.resolve(process.env.INIT_CWD ?? process.cwd(), relative);
}

/** The result as JSON: the updates' texts are on disk (or, dry, nowhere), so only their paths are printed. */
function render(result: PatchResult, dryRun: boolean): string {
  if (!result.ok) return `${JSON.stringify(result, null, 2)}\n`;
  const { updates, ...rest } = result;
  const written = [...updates].map(([relative, text]) => ({
    path: relative,
    removed: text === null,
  }));
  return `${JSON.stringify({ ...rest, dry_run: dryRun, written: dryRun ? [] : written }, null, 2)}\n`;
}

/**
 * `npm run patch -- --dir <folder> <patch-file> [--dry-run]`: applies a patch to a folder in
 * place, all or nothing, and prints the JSON result. Exit 0 on success, 1 when the patch is
 * refused or cannot be written, 2 on a usage error. Paths that pass through a symbolic link are
 * refused (PATCH_PATH_POLICY_VIOLATION) before any file is read.
 */
export function runCli(argv: readonly string[], streams: CliStreams = processStreams): number {
  const parsed = parseArguments(argv);
  if (typeof parsed === "string") {
    streams.stderr(`${parsed}\n${usage}\n`);
    return 2;
  }
  let root: string;
  let patchText: string;
  try {
    root = fs.realpathSync(fromCaller(parsed.directory));
    if (!fs.statSync(root).isDirectory()) throw new Error(`${parsed.directory} is not a directory`);
    patchText =
      parsed.patchFile === "-"
        ? streams.stdin()
        : fs.readFileSync(fromCaller(parsed.patchFile), "utf8");
  } catch (error) {
    streams.stderr(`${error instanceof Error ? error.message : String(error)}\n${usage}\n`);
    return 2;
  }

  const prepared = preparePatch(patchText);
  if (!prepared.ok) {
    streams.stdout(render(prepared, parsed.dryRun));
    return 1;
  }
  const linked = namedPaths(prepared.patch).flatMap((relative) => {
    const link = symbolicLinkOnPath(root, relative);
    return link
      ? [
          fileFailure(
            relative,
            "PATCH_PATH_POLICY_VIOLATION",
            `the path passes through the symbolic link ${link}`,
          ),
        ]
      : [];
  });
  if (linked.length > 0) {
    streams.stdout(render(buildPatchFailure(linked), parsed.dryRun));
    return 1;
  }

  const result = applyPatch({ files: new DirectoryFileSource(root), patch: patchText });
  if (result.ok && !parsed.dryRun) {
    try {
      writeUpdates(root, result.updates);
    } catch (error) {
      const message = `writing the folder failed (${error instanceof Error ? error.message : String(error)}); files already written were restored`;
      streams.stdout(
        render(
          buildPatchFailure([fileFailure(null, "PATCH_WRITE_FAILED", message)]),
          parsed.dryRun,
        ),
      );
      return 1;
    }
  }
  streams.stdout(render(result, parsed.dryRun));
  return result.ok ? 0 : 1;
}

const entryPoint = process.argv[1] ? pathToFileURL(path.resolve(process.argv[1])).href : "";
if (import.meta.url === entryPoint) process.exitCode = runCli(process.argv.slice(2));
