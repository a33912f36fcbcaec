"use client";

import CodeMirror, { EditorView } from "@uiw/react-codemirror";
import { useTheme } from "next-themes";
import { useMemo } from "react";
import { editorLanguage } from "./editor-language";

export interface CodeEditorProps {
  path: string;
  value: string;
  onChange: (value: string) => void;
}

/**
 * CodeMirror 6 for one file, with the language picked from its extension. Ctrl/Cmd+S is not
 * bound here: it bubbles to the code pane, which saves from anywhere in the workspace.
 */
export default function CodeEditor({ path, value, onChange }: CodeEditorProps) {
  // The editor loads in the browser only, so the resolved theme is known when it renders.
  const { resolvedTheme } = useTheme();
  const extensions = useMemo(
    () => [
      ...editorLanguage(path),
      EditorView.contentAttributes.of({ "aria-label": `Edit ${path}` }),
    ],
    [path],
  );

  return (
    <CodeMirror
      value={value}
      onChange={onChange}
      extensions={extensions}
      height="100%"
      theme={resolvedTheme === "dark" ? "dark" : "light"}
      autoFocus
      className="code-editor h-full min-h-0"
      basicSetup={{ highlightActiveLine: true, foldGutter: true, bracketMatching: true }}
      data-testid="code-editor"
    />
  );
}
