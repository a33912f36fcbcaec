import type { CSSProperties } from "react";
import type { HighlightToken } from "./highlighter";

/** One line of highlighted code; an empty line keeps its height. */
export function HighlightedLine({
  tokens,
  fallback,
}: {
  tokens?: HighlightToken[];
  fallback: string;
}) {
  if (!tokens) return <>{fallback || " "}</>;
  if (tokens.length === 0 || (tokens.length === 1 && tokens[0].content === "")) return <> </>;
  return (
    <>
      {tokens.map((token, index) => (
        <span key={index} className="code-token" style={token.style as CSSProperties}>
          {token.content}
        </span>
      ))}
    </>
  );
}
