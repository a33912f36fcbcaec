import { css } from "@codemirror/lang-css";
import { html } from "@codemirror/lang-html";
import { javascript } from "@codemirror/lang-javascript";
import { json } from "@codemirror/lang-json";
import { markdown } from "@codemirror/lang-markdown";
import type { Extension } from "@uiw/react-codemirror";
import { languageForPath } from "@/components/highlight/language-for-path";

/** The CodeMirror language support for a path, chosen by its extension; none for plain text. */
export function editorLanguage(path: string): Extension[] {
  switch (languageForPath(path)) {
    case "tsx":
      return [javascript({ jsx: true, typescript: true })];
    case "typescript":
      return [javascript({ typescript: true })];
    case "jsx":
      return [javascript({ jsx: true })];
    case "javascript":
      return [javascript()];
    case "css":
      return [css()];
    case "html":
      return [html()];
    case "json":
      return [json()];
    case "markdown":
      return [markdown()];
    default:
      return [];
  }
}
