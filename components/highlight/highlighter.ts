import type { HighlighterCore } from "shiki/core";
import type { HighlightLanguage } from "./language-for-path";

/** One coloured run of text on a line. */
export interface HighlightToken {
  content: string;
  /**
   * Both themes' colours and font styles as CSS variables (`--shiki-light`, `--shiki-dark`, …);
   * the `.code-token` rule picks the page theme's.
   */
  style?: Record<string, string>;
}

export const highlightThemes = { light: "github-light", dark: "github-dark" } as const;

let highlighter: Promise<HighlighterCore> | null = null;

/**
 * The page's one shiki highlighter, created on first use with only the grammars the builder
 * needs and the JavaScript regex engine (no WASM download).
 */
function loadHighlighter(): Promise<HighlighterCore> {
  highlighter ??= (async () => {
    const [{ createHighlighterCore }, { createJavaScriptRegexEngine }] = await Promise.all([
      import("shiki/core"),
      import("shiki/engine/javascript"),
    ]);
    return createHighlighterCore({
      themes: [import("shiki/themes/github-light.mjs"), import("shiki/themes/github-dark.mjs")],
      langs: [
        import("shiki/langs/tsx.mjs"),
        import("shiki/langs/typescript.mjs"),
        import("shiki/langs/jsx.mjs"),
        import("shiki/langs/javascript.mjs"),
        import("shiki/langs/css.mjs"),
        import("shiki/langs/html.mjs"),
        import("shiki/langs/json.mjs"),
        import("shiki/langs/markdown.mjs"),
      ],
      engine: createJavaScriptRegexEngine({ forgiving: true }),
    });
  })();
  return highlighter;
}

/** Code beyond this size is shown plain: tokenizing it would stall the page for little gain. */
export const maximumHighlightedCharacters = 200_000;

/** Tokenizes code into lines of coloured runs; plain text comes back as one run per line. */
export async function highlightLines(
  code: string,
  language: HighlightLanguage,
): Promise<HighlightToken[][]> {
  if (language === "text" || code.length > maximumHighlightedCharacters) {
    return code.split("\n").map((line) => [{ content: line }]);
  }
  const instance = await loadHighlighter();
  const { tokens } = instance.codeToTokens(code, {
    lang: language,
    themes: highlightThemes,
    // No default: both colours stay variables, so one tokenisation serves either theme.
    defaultColor: false,
  });
  return tokens.map((line) =>
    line.map((token) => ({
      content: token.content,
      style: token.htmlStyle as Record<string, string> | undefined,
    })),
  );
}
