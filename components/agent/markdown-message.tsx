"use client";

import { type ComponentProps, isValidElement, memo, type ReactNode } from "react";
import { type Components, Streamdown, useIsCodeFenceIncomplete } from "streamdown";
import { cn } from "@/components/ui/class-names";
import { MarkdownCodeBlock } from "./markdown-code-block";

function textOf(children: ReactNode): string {
  if (typeof children === "string" || typeof children === "number") return String(children);
  if (Array.isArray(children)) return children.map(textOf).join("");
  if (isValidElement<{ children?: ReactNode }>(children)) return textOf(children.props.children);
  return "";
}

function BlockCode({ className, children }: ComponentProps<"code">) {
  const streaming = useIsCodeFenceIncomplete();
  const fence = /language-([^\s]+)/.exec(className ?? "")?.[1] ?? "";
  return <MarkdownCodeBlock code={textOf(children)} fence={fence} streaming={streaming} />;
}

/*
 * Our own element styles rather than streamdown's defaults: its classes live in node_modules,
 * which Tailwind does not scan, and the panel wants light, borderless prose anyway.
 */
const components: Components = {
  code: (props) => {
    const { node: _node, ...rest } = props as ComponentProps<"code"> & { node?: unknown };
    if ("data-block" in rest) return <BlockCode {...rest} />;
    return (
      <code className="rounded bg-zinc-100 px-1 py-0.5 font-mono text-[0.85em] text-zinc-800">
        {rest.children}
      </code>
    );
  },
  a: ({ node: _node, href, children }) => (
    <a
      href={href}
      target="_blank"
      rel="noreferrer noopener"
      className="font-medium text-indigo-600 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-600"
    >
      {children}
    </a>
  ),
  ul: ({ node: _node, children }) => <ul className="list-disc space-y-1 pl-5">{children}</ul>,
  ol: ({ node: _node, children, start }) => (
    <ol start={start} className="list-decimal space-y-1 pl-5">
      {children}
    </ol>
  ),
  li: ({ node: _node, children }) => <li className="pl-0.5 marker:text-zinc-400">{children}</li>,
  strong: ({ node: _node, children }) => (
    <strong className="font-semibold text-zinc-900">{children}</strong>
  ),
  h1: ({ node: _node, children }) => <h3 className="text-base font-semibold">{children}</h3>,
  h2: ({ node: _node, children }) => <h3 className="text-[15px] font-semibold">{children}</h3>,
  h3: ({ node: _node, children }) => <h4 className="text-sm font-semibold">{children}</h4>,
  h4: ({ node: _node, children }) => <h5 className="text-sm font-medium">{children}</h5>,
  blockquote: ({ node: _node, children }) => (
    <blockquote className="border-l-2 border-zinc-200 pl-3 text-zinc-600">{children}</blockquote>
  ),
  hr: () => <hr className="border-zinc-100" />,
  table: ({ node: _node, children }) => (
    <div className="overflow-x-auto">
      <table className="w-full border-collapse text-left text-xs">{children}</table>
    </div>
  ),
  th: ({ node: _node, children }) => (
    <th className="border-b border-zinc-200 px-2 py-1 font-medium text-zinc-700">{children}</th>
  ),
  td: ({ node: _node, children }) => (
    <td className="border-b border-zinc-100 px-2 py-1 align-top">{children}</td>
  ),
  // Images in a reply would load third-party URLs inside the builder: link to them instead.
  img: ({ node: _node, src, alt }) =>
    typeof src === "string" ? (
      <a href={src} target="_blank" rel="noreferrer noopener" className="text-indigo-600 underline">
        {alt || src}
      </a>
    ) : null,
};

/** A reply paragraph run as streaming markdown; incomplete syntax is closed while it streams. */
export const MarkdownMessage = memo(function MarkdownMessage({
  text,
  streaming,
  className,
}: {
  text: string;
  streaming: boolean;
  className?: string;
}) {
  return (
    <Streamdown
      mode={streaming ? "streaming" : "static"}
      isAnimating={streaming}
      controls={false}
      lineNumbers={false}
      components={components}
      className={cn(
        "space-y-3 text-sm leading-relaxed break-words text-zinc-800 [&>*:first-child]:mt-0 [&>*:last-child]:mb-0",
        className,
      )}
    >
      {text}
    </Streamdown>
  );
});
