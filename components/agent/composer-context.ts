/*
 * `@` mentions in the composer: finding the one being typed, ranking the draft's paths for it,
 * and carrying the chosen files with the message as a "Context:" line the agent can read.
 */

export interface ActiveMention {
  /** Index of the `@`. */
  start: number;
  /** Index just after the query (the caret). */
  end: number;
  query: string;
}

/** The `@query` the caret is in, when it starts a word; null otherwise (e.g. in an e-mail address). */
export function findActiveMention(text: string, caret: number): ActiveMention | null {
  const before = text.slice(0, caret);
  const match = /(^|\s)@([^\s@]*)$/.exec(before);
  if (!match) return null;
  const start = caret - match[2].length - 1;
  return { start, end: caret, query: match[2] };
}

/**
 * The paths that best match a query: file name prefix first, then path prefix, then any
 * substring, then the query's characters in order; shorter paths first within a rank.
 */
export function rankPaths(paths: readonly string[], query: string, limit = 8): string[] {
  const needle = query.toLowerCase();
  const ranked: { path: string; rank: number }[] = [];
  for (const path of paths) {
    const lower = path.toLowerCase();
    const name = lower.slice(lower.lastIndexOf("/") + 1);
    let rank: number;
    if (!needle) rank = 0;
    else if (name.startsWith(needle)) rank = 0;
    else if (lower.startsWith(needle)) rank = 1;
    else if (lower.includes(needle)) rank = 2;
    else if (isSubsequence(needle, lower)) rank = 3;
    else continue;
    ranked.push({ path, rank });
  }
  ranked.sort(
    (left, right) =>
      left.rank - right.rank ||
      left.path.length - right.path.length ||
      left.path.localeCompare(right.path),
  );
  return ranked.slice(0, limit).map((entry) => entry.path);
}

function isSubsequence(needle: string, haystack: string): boolean {
  let index = 0;
  for (const character of haystack) {
    if (character === needle[index]) index += 1;
    if (index === needle.length) return true;
  }
  return needle.length === 0;
}

/** Replaces the `@query` being typed with the chosen `@path ` and says where the caret goes. */
export function insertMention(
  text: string,
  mention: ActiveMention,
  path: string,
): { text: string; caret: number } {
  const inserted = `@${path} `;
  const after = text.slice(mention.end).replace(/^\s/, "");
  return {
    text: text.slice(0, mention.start) + inserted + after,
    caret: mention.start + inserted.length,
  };
}

const contextLine = /\n*\nContext: ((?:@\S+ ?)+)\s*$/;

/** The message sent to the agent: what was typed, then a "Context: @a @b" line of attached files. */
export function withContext(text: string, paths: readonly string[]): string {
  const unique = [...new Set(paths)];
  if (unique.length === 0) return text;
  return `${text}\n\nContext: ${unique.map((path) => `@${path}`).join(" ")}`;
}

/** Splits a sent message back into what was typed and the attached paths, for display. */
export function splitContext(input: string): { text: string; paths: string[] } {
  const match = contextLine.exec(input);
  if (!match) return { text: input, paths: [] };
  return {
    text: input.slice(0, match.index).trimEnd(),
    paths: match[1]
      .trim()
      .split(/\s+/)
      .map((token) => token.slice(1))
      .filter(Boolean),
  };
}
