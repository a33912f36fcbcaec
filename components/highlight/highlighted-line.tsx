import type { CSSProperties } from "react";
import type { HighlightToken } from "./highlighter";

function tokenStyle(token: HighlightToken): CSSProperties | undefined {
  if (!token.color && !token.fontStyle) return undefined;
  const style: CSSProperties = { color: token.color };
  if (token.fontStyle) {
    if (token.fontStyle & 1) style.fontStyle = "italic";
    if (token.fontStyle & 2) style.fontWeight = 600;
    if (token.fontStyle & 4) style.textDecoration = "underline";
  }
  return style;
}

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
        <span key={index} style={tokenStyle(token)}>
          {token.content}
        </span>
      ))}
    </>
  );
}
