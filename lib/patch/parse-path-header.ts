/**
 * Reading file names out of unified-diff headers: `--- a/x\t<date>`, git's C-quoted names,
 * `diff --git a/x b/x`, and the prefix stripping git applies with `-p1`.
 */

export const nullDevice = "/dev/null";

const quoteEscapes: Record<string, string> = {
  a: "\x07",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "\\": "\\",
  '"': '"',
};

/**
 * Reads a git C-quoted name ("a/caf\303\251.txt") starting at `text[start] === '"'`. Octal escapes
 * are UTF-8 bytes. Returns the name and the index after the closing quote, or null if unterminated.
 */
export function readQuotedName(text: string, start: number): { name: string; end: number } | null {
  const bytes: number[] = [];
  const encoder = new TextEncoder();
  let index = start + 1;
  while (index < text.length) {
    const character = text[index];
    if (character === '"') {
      return { name: new TextDecoder().decode(new Uint8Array(bytes)), end: index + 1 };
    }
    if (character === "\\" && index + 1 < text.length) {
      const next = text[index + 1];
      const octal = /^[0-7]{3}/.exec(text.slice(index + 1, index + 4));
      if (octal) {
        bytes.push(Number.parseInt(octal[0], 8));
        index += 4;
        continue;
      }
      const escaped = quoteEscapes[next];
      // An unknown escape is kept literally so a hostile name cannot be smuggled through it.
      for (const byte of encoder.encode(escaped ?? `\\${next}`)) bytes.push(byte);
      index += 2;
      continue;
    }
    for (const byte of encoder.encode(character)) bytes.push(byte);
    index += 1;
  }
  return null;
}

/** The name in a `--- ` or `+++ ` line (after the marker): unquoted, without a trailing date. */
export function readHeaderName(rest: string): string {
  const trimmed = rest.trimStart();
  if (trimmed.startsWith('"')) {
    const quoted = readQuotedName(trimmed, 0);
    if (quoted) return quoted.name;
  }
  // diff -u and GNU patch separate the date with a tab; names never contain one unquoted.
  const tab = trimmed.indexOf("\t");
  return (tab === -1 ? trimmed : trimmed.slice(0, tab)).trimEnd();
}

/** The two names of `diff --git <old> <new>`, or null when they cannot be told apart. */
export function readGitHeaderNames(rest: string): { oldName: string; newName: string } | null {
  if (rest.startsWith('"')) {
    const first = readQuotedName(rest, 0);
    if (!first) return null;
    const second = rest.slice(first.end).trimStart();
    const secondName = second.startsWith('"') ? readQuotedName(second, 0)?.name : second;
    return secondName ? { oldName: first.name, newName: secondName } : null;
  }
  const quoteStart = rest.indexOf(' "');
  if (quoteStart !== -1) {
    const second = readQuotedName(rest, quoteStart + 1);
    if (second) return { oldName: rest.slice(0, quoteStart), newName: second.name };
  }
  // Unquoted names may hold spaces; a non-rename header names the same path twice, so prefer
  // the split whose halves agree after their prefixes.
  const splits: { oldName: string; newName: string }[] = [];
  for (let index = rest.indexOf(" "); index !== -1; index = rest.indexOf(" ", index + 1)) {
    splits.push({ oldName: rest.slice(0, index), newName: rest.slice(index + 1) });
  }
  const agreeing = splits.find((split) => split.oldName.slice(2) === split.newName.slice(2));
  return agreeing ?? (splits.length === 1 ? splits[0] : null);
}

// git's default prefixes and its diff.mnemonicPrefix pairs (commit, index, work tree, object).
const gitPrefixPairs = [
  ["a/", "b/"],
  ["c/", "w/"],
  ["i/", "w/"],
  ["c/", "i/"],
  ["o/", "w/"],
  ["1/", "2/"],
] as const;

/**
 * Strips the `a/` and `b/` prefixes git writes (and, under a `diff --git` header, its mnemonic
 * prefixes). A name is stripped only when the pair agrees, so a real top-level `a/` directory in
 * a plain diff (`--- a/x` / `+++ a/x`) is left alone. `/dev/null` stays as it is.
 */
export function stripGitPrefixes(
  oldName: string,
  newName: string,
  underGitHeader: boolean,
): { oldName: string; newName: string } {
  const pairs = underGitHeader ? gitPrefixPairs : gitPrefixPairs.slice(0, 1);
  for (const [oldPrefix, newPrefix] of pairs) {
    const oldMatches = oldName === nullDevice || oldName.startsWith(oldPrefix);
    const newMatches = newName === nullDevice || newName.startsWith(newPrefix);
    if (oldMatches && newMatches && !(oldName === nullDevice && newName === nullDevice)) {
      return {
        oldName: oldName === nullDevice ? oldName : oldName.slice(oldPrefix.length),
        newName: newName === nullDevice ? newName : newName.slice(newPrefix.length),
      };
    }
  }
  return { oldName, newName };
}
