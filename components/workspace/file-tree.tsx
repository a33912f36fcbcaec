"use client";

import { ChevronRight, Folder, FolderOpen } from "lucide-react";
import { type KeyboardEvent, useMemo, useRef, useState } from "react";
import type { FileEntry } from "@/components/api-types";
import { cn } from "@/components/ui/class-names";
import { buildFileTree, type FileTreeNode } from "./build-file-tree";
import { FileIcon } from "./file-icon";

export interface FileTreeProps {
  files: FileEntry[];
  selectedPath: string | null;
  onSelect: (path: string) => void;
  /** A path with unsaved edits gets a dot. */
  dirtyPath?: string | null;
}

/**
 * The draft's files as a tree. Folders collapse; ↑/↓ move between visible rows, → opens a
 * folder, ← closes it (or moves to its parent), Enter opens a file.
 */
export function FileTree({ files, selectedPath, onSelect, dirtyPath }: FileTreeProps) {
  const tree = useMemo(() => buildFileTree(files), [files]);
  const [collapsed, setCollapsed] = useState<Set<string>>(() => new Set());
  const container = useRef<HTMLDivElement>(null);

  const toggle = (path: string, open?: boolean) =>
    setCollapsed((current) => {
      const next = new Set(current);
      const shouldOpen = open ?? next.has(path);
      if (shouldOpen) next.delete(path);
      else next.add(path);
      return next;
    });

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const rows = Array.from(
      container.current?.querySelectorAll<HTMLButtonElement>("[data-tree-row]") ?? [],
    );
    const index = rows.indexOf(document.activeElement as HTMLButtonElement);
    if (index < 0) return;
    const row = rows[index];
    const path = row.dataset.path ?? "";
    const isFolder = row.dataset.type === "folder";
    const move = (target: number) => {
      event.preventDefault();
      rows[Math.max(0, Math.min(rows.length - 1, target))]?.focus();
    };
    switch (event.key) {
      case "ArrowDown":
        return move(index + 1);
      case "ArrowUp":
        return move(index - 1);
      case "Home":
        return move(0);
      case "End":
        return move(rows.length - 1);
      case "ArrowRight":
        if (isFolder && collapsed.has(path)) {
          event.preventDefault();
          toggle(path, true);
        } else if (isFolder) move(index + 1);
        return;
      case "ArrowLeft": {
        if (isFolder && !collapsed.has(path)) {
          event.preventDefault();
          toggle(path, false);
          return;
        }
        const parent = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : null;
        const parentIndex = rows.findIndex((candidate) => candidate.dataset.path === parent);
        if (parentIndex >= 0) move(parentIndex);
        return;
      }
    }
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: arrow keys are delegated here from the focused row buttons
    <div
      ref={container}
      className="py-1.5 text-[13px]"
      onKeyDown={onKeyDown}
      data-testid="file-tree"
    >
      <ul className="space-y-px">
        {tree.map((node) => (
          <TreeRow
            key={node.path}
            node={node}
            depth={0}
            collapsed={collapsed}
            onToggle={toggle}
            selectedPath={selectedPath}
            onSelect={onSelect}
            dirtyPath={dirtyPath}
          />
        ))}
      </ul>
    </div>
  );
}

function TreeRow({
  node,
  depth,
  collapsed,
  onToggle,
  selectedPath,
  onSelect,
  dirtyPath,
}: {
  node: FileTreeNode;
  depth: number;
  collapsed: Set<string>;
  onToggle: (path: string) => void;
  selectedPath: string | null;
  onSelect: (path: string) => void;
  dirtyPath?: string | null;
}) {
  const indent = { paddingLeft: `${depth * 12 + 8}px` };
  if (node.type === "folder") {
    const open = !collapsed.has(node.path);
    const FolderIcon = open ? FolderOpen : Folder;
    return (
      <li>
        <button
          type="button"
          className="group flex h-7 w-full cursor-pointer items-center gap-1.5 rounded-md pr-2 text-left text-zinc-700 hover:bg-zinc-100 focus-visible:outline-offset-[-2px]"
          style={indent}
          aria-expanded={open}
          onClick={() => onToggle(node.path)}
          data-tree-row
          data-type="folder"
          data-path={node.path}
          data-testid="file-tree-item"
        >
          <ChevronRight
            className={cn(
              "size-3.5 shrink-0 text-zinc-400 transition-transform",
              open && "rotate-90",
            )}
            aria-hidden="true"
          />
          <FolderIcon className="size-4 shrink-0 text-zinc-400" aria-hidden="true" />
          <span className="truncate">{node.name}</span>
        </button>
        {open ? (
          <ul className="space-y-px">
            {node.children.map((child) => (
              <TreeRow
                key={child.path}
                node={child}
                depth={depth + 1}
                collapsed={collapsed}
                onToggle={onToggle}
                selectedPath={selectedPath}
                onSelect={onSelect}
                dirtyPath={dirtyPath}
              />
            ))}
          </ul>
        ) : null}
      </li>
    );
  }
  const selected = node.path === selectedPath;
  return (
    <li>
      <button
        type="button"
        className={cn(
          "flex h-7 w-full cursor-pointer items-center gap-1.5 rounded-md pr-2 text-left focus-visible:outline-offset-[-2px]",
          selected ? "bg-indigo-50 font-medium text-indigo-900" : "text-zinc-700 hover:bg-zinc-100",
        )}
        style={{ paddingLeft: `${depth * 12 + 8 + 18}px` }}
        aria-current={selected ? "true" : undefined}
        onClick={() => onSelect(node.path)}
        title={node.path}
        data-tree-row
        data-type="file"
        data-path={node.path}
        data-testid="file-tree-item"
      >
        <FileIcon path={node.path} />
        <span className="truncate">{node.name}</span>
        {dirtyPath === node.path ? (
          <span
            className="ml-auto size-1.5 shrink-0 rounded-full bg-amber-500"
            title="Unsaved changes"
          >
            <span className="sr-only">(unsaved changes)</span>
          </span>
        ) : null}
      </button>
    </li>
  );
}
