import type { PatchTextLine } from "./extract-patch-lines";
import {
  nullDevice,
  readGitHeaderNames,
  readHeaderName,
  readQuotedName,
  stripGitPrefixes,
} from "./parse-path-header";
import type { FilePatch, Hunk, ParseOutcome } from "./patch-model";
import { isFileHeaderPair, readHunkBody } from "./read-hunk-body";

/** What the extended header lines after `diff --git` said. */
interface GitHeader {
  oldName: string | null;
  newName: string | null;
  renameFrom: string | null;
  renameTo: string | null;
  copyFrom: string | null;
  copyTo: string | null;
  newFile: boolean;
  deletedFile: boolean;
  modeChange: boolean;
  binary: boolean;
}

type Failure = Extract<ParseOutcome, { ok: false }>;
type SectionOutcome = { ok: true; file: FilePatch | null; end: number } | Failure;

function failure(line: PatchTextLine | undefined, expected: string, fallbackLine: number): Failure {
  return {
    ok: false,
    failure: {
      line: line?.number ?? fallbackLine,
      expected,
      found: line ? line.text : "the end of the patch",
    },
  };
}

function extendedName(text: string, prefix: string): string {
  const rest = text.slice(prefix.length);
  return rest.startsWith('"') ? (readQuotedName(rest, 0)?.name ?? rest) : rest.trimEnd();
}

/** Records what one extended header line says; false when the line is not one. */
function readExtendedHeaderLine(
  header: GitHeader,
  lines: readonly PatchTextLine[],
  index: number,
): boolean {
  const text = lines[index].text;
  if (text.startsWith("old mode ") || text.startsWith("new mode ")) header.modeChange = true;
  else if (text.startsWith("new file mode")) header.newFile = true;
  else if (text.startsWith("deleted file mode")) header.deletedFile = true;
  else if (text.startsWith("rename from ")) header.renameFrom = extendedName(text, "rename from ");
  else if (text.startsWith("rename to ")) header.renameTo = extendedName(text, "rename to ");
  else if (text.startsWith("copy from ")) header.copyFrom = extendedName(text, "copy from ");
  else if (text.startsWith("copy to ")) header.copyTo = extendedName(text, "copy to ");
  else if (text.startsWith("Binary files ") || text === "GIT binary patch") header.binary = true;
  else if (/^(similarity|dissimilarity) index /.test(text) || text.startsWith("index "))
    return true;
  else {
    // After a binary marker come base85 literal and delta lines, up to a blank line or the next file.
    return (
      header.binary &&
      text !== "" &&
      !text.startsWith("diff --git ") &&
      !isFileHeaderPair(lines, index)
    );
  }
  return true;
}

/** Reads the extended header lines after `diff --git`, returning where they stop. */
function readGitHeader(
  lines: readonly PatchTextLine[],
  start: number,
): { header: GitHeader; end: number } {
  const names = readGitHeaderNames(lines[start].text.slice("diff --git ".length));
  const header: GitHeader = {
    oldName: names?.oldName ?? null,
    newName: names?.newName ?? null,
    renameFrom: null,
    renameTo: null,
    copyFrom: null,
    copyTo: null,
    newFile: false,
    deletedFile: false,
    modeChange: false,
    binary: false,
  };
  let index = start + 1;
  while (index < lines.length && readExtendedHeaderLine(header, lines, index)) index += 1;
  return { header, end: index };
}

function readHunks(
  lines: readonly PatchTextLine[],
  start: number,
): { hunks: Hunk[]; end: number } | Failure {
  const hunks: Hunk[] = [];
  let index = start;
  // Models sometimes send the body right after '+++' with no '@@' line: one hunk, placed by content.
  const first = lines[index];
  if (first && /^[ +-]/.test(first.text) && !isFileHeaderPair(lines, index)) {
    const header: PatchTextLine = { text: "@@ @@", carriageReturn: false, number: first.number };
    const withHeader = [...lines.slice(0, index), header, ...lines.slice(index)];
    const body = readHunkBody(withHeader, index);
    if (body) {
      hunks.push(body.hunk);
      index = body.end - 1;
    }
  }
  while (index < lines.length && lines[index].text.startsWith("@@")) {
    if (lines[index].text.startsWith("@@@")) {
      return failure(
        lines[index],
        "a '@@ -l,s +l,s @@' hunk header (combined merge diffs are not supported)",
        0,
      );
    }
    const body = readHunkBody(lines, index);
    if (!body)
      return failure(
        lines[index + 1],
        "a hunk line starting with ' ', '-' or '+'",
        lines[index].number,
      );
    hunks.push(body.hunk);
    index = body.end;
  }
  return { hunks, end: index };
}

function makeFile(kind: FilePatch["kind"], path: string, patchLine: number): FilePatch {
  return { kind, path, targetPath: null, alternatePath: null, hunks: [], binary: false, patchLine };
}

/** Decides what a section does from its git header (if any) and its `---`/`+++` names. */
function describeSection(
  header: GitHeader | null,
  names: { oldName: string; newName: string } | null,
  patchLine: number,
) {
  if (header?.renameFrom && header.renameTo) {
    return { ...makeFile("rename", header.renameFrom, patchLine), targetPath: header.renameTo };
  }
  if (header?.copyFrom && header.copyTo) {
    return { ...makeFile("copy", header.copyFrom, patchLine), targetPath: header.copyTo };
  }
  const raw =
    names ??
    (header?.oldName && header.newName
      ? { oldName: header.oldName, newName: header.newName }
      : null);
  if (!raw) return null;
  const { oldName, newName } = stripGitPrefixes(raw.oldName, raw.newName, header !== null);
  if (header?.newFile || oldName === nullDevice) return makeFile("add", newName, patchLine);
  if (header?.deletedFile || newName === nullDevice) return makeFile("delete", oldName, patchLine);
  const file = makeFile("update", oldName, patchLine);
  if (newName !== oldName) file.alternatePath = newName;
  return file;
}

function modeWarning(path: string): string {
  return `Ignored a file mode change for ${path}: file modes are not tracked.`;
}

const binaryFilesPattern = /^Binary files (.+) and (.+) differ$/;

function readSection(
  lines: readonly PatchTextLine[],
  start: number,
  warnings: string[],
): SectionOutcome {
  let index = start;
  let header: GitHeader | null = null;
  if (lines[index].text.startsWith("diff --git ")) {
    const read = readGitHeader(lines, index);
    header = read.header;
    index = read.end;
  }
  let names: { oldName: string; newName: string } | null = null;
  if (isFileHeaderPair(lines, index)) {
    names = {
      oldName: readHeaderName(lines[index].text.slice(4)),
      newName: readHeaderName(lines[index + 1].text.slice(4)),
    };
    if (names.oldName === nullDevice && names.newName === nullDevice) {
      return failure(
        lines[index],
        "a file name other than /dev/null on the '---' or '+++' line",
        0,
      );
    }
    if (names.oldName === "" || names.newName === "") {
      return failure(
        lines[names.oldName === "" ? index : index + 1],
        "a file name after '---' and '+++'",
        0,
      );
    }
    index += 2;
  }
  const read = readHunks(lines, index);
  if ("ok" in read) return read;
  const file = describeSection(header, names, lines[start].number);
  if (!file) {
    if (header === null) return failure(lines[start], "a '--- <path>' and '+++ <path>' pair", 0);
    return failure(
      lines[start],
      "a 'diff --git a/<path> b/<path>' header whose two paths can be told apart",
      0,
    );
  }
  file.hunks = read.hunks;
  file.binary = header?.binary ?? false;
  const onlyModeChange = file.kind === "update" && file.hunks.length === 0 && !file.binary;
  if (onlyModeChange) {
    if (names)
      return failure(
        lines[read.end],
        "a '@@ -l,s +l,s @@' hunk header after '+++'",
        lines[start].number,
      );
    if (header?.modeChange) warnings.push(modeWarning(file.path));
    return { ok: true, file: null, end: read.end };
  }
  if (header?.modeChange) warnings.push(modeWarning(file.targetPath ?? file.path));
  return { ok: true, file, end: read.end };
}

/**
 * Parses a unified diff: plain (`diff -u`, jsdiff's `Index:` form) or git (`diff --git`, renames,
 * copies, modes, binary markers), one or many files, with prose skipped between file sections.
 * Hunk counts are checked against the body and ignored when wrong.
 */
export function parseUnifiedDiff(lines: readonly PatchTextLine[]): ParseOutcome {
  const files: FilePatch[] = [];
  const warnings: string[] = [];
  const carriesLineEndings = lines.some((line) => line.carriageReturn);
  let index = 0;
  while (index < lines.length) {
    const text = lines[index].text;
    if (text.startsWith("diff --git ") || isFileHeaderPair(lines, index)) {
      const section = readSection(lines, index, warnings);
      if (!section.ok) return section;
      if (section.file) files.push(section.file);
      index = Math.max(section.end, index + 1);
    } else if (text.startsWith("@@")) {
      // A hunk after prose continues the previous file's section; with no section it has no file.
      const previous = files.at(-1);
      if (!previous || previous.kind === "delete" || previous.binary) {
        return failure(lines[index], "a '--- <path>' and '+++ <path>' pair before the hunk", 0);
      }
      const read = readHunks(lines, index);
      if ("ok" in read) return read;
      previous.hunks.push(...read.hunks);
      index = read.end;
    } else if (binaryFilesPattern.test(text)) {
      const [, oldName, newName] = binaryFilesPattern.exec(text) ?? [];
      const stripped = stripGitPrefixes(oldName, newName, false);
      const path = stripped.newName === nullDevice ? stripped.oldName : stripped.newName;
      files.push({ ...makeFile("update", path, lines[index].number), binary: true });
      index += 1;
    } else {
      index += 1; // prose, `Index:` and `====` lines
    }
  }
  return { ok: true, patch: { format: "unified", files, carriesLineEndings, warnings } };
}
