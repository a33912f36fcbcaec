/**
 * esbuild runs a plugin's onResolve callback (a round trip to its service process) for every import
 * its filter matches, and filters are Go regular expressions without lookahead. This builds the
 * filter "a bare specifier other than these exact names", so allowed packages resolve natively
 * while everything else still reaches the plugin and its allow-list check.
 */
export function bareImportFilterExcept(names: readonly string[]): RegExp {
  const root = new TrieNode();
  for (const name of names) root.insert(name);
  // A bare specifier does not start with "." or "/" (relative, app-absolute) and is not empty.
  const alternatives = [`[^./${root.childCharacters()}].*`];
  for (const [character, child] of root.children) {
    alternatives.push(`${escapeCharacter(character)}${child.complement()}`);
  }
  return new RegExp(`^(?:${alternatives.join("|")})$`);
}

class TrieNode {
  readonly children = new Map<string, TrieNode>();
  terminal = false;

  insert(word: string): void {
    let node: TrieNode = this;
    for (const character of word) {
      let child = node.children.get(character);
      if (!child) {
        child = new TrieNode();
        node.children.set(character, child);
      }
      node = child;
    }
    node.terminal = true;
  }

  childCharacters(): string {
    return [...this.children.keys()].map(escapeCharacter).join("");
  }

  /** A pattern for every continuation of this node's prefix that does not spell a listed name. */
  complement(): string {
    const alternatives: string[] = [];
    if (!this.terminal) alternatives.push("");
    alternatives.push(this.children.size === 0 ? ".+" : `[^${this.childCharacters()}].*`);
    for (const [character, child] of this.children) {
      alternatives.push(`${escapeCharacter(character)}${child.complement()}`);
    }
    return `(?:${alternatives.join("|")})`;
  }
}

function escapeCharacter(character: string): string {
  return /[a-zA-Z0-9]/.test(character) ? character : `\\${character}`;
}
