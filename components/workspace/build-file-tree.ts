export interface FileTreeFolder {
  type: "folder";
  name: string;
  path: string;
  children: FileTreeNode[];
}

export interface FileTreeFile {
  type: "file";
  name: string;
  path: string;
  size: number;
}

export type FileTreeNode = FileTreeFolder | FileTreeFile;

/** Turns flat workspace paths into a tree: folders first, then files, each alphabetical. */
export function buildFileTree(files: { path: string; size: number }[]): FileTreeNode[] {
  const root: FileTreeFolder = { type: "folder", name: "", path: "", children: [] };
  for (const file of files) {
    const segments = file.path.split("/");
    let folder = root;
    for (const [index, segment] of segments.slice(0, -1).entries()) {
      const path = segments.slice(0, index + 1).join("/");
      let next = folder.children.find(
        (child): child is FileTreeFolder => child.type === "folder" && child.name === segment,
      );
      if (!next) {
        next = { type: "folder", name: segment, path, children: [] };
        folder.children.push(next);
      }
      folder = next;
    }
    folder.children.push({
      type: "file",
      name: segments.at(-1) ?? file.path,
      path: file.path,
      size: file.size,
    });
  }
  sortTree(root);
  return root.children;
}

function sortTree(folder: FileTreeFolder) {
  folder.children.sort((left, right) =>
    left.type === right.type
      ? left.name.localeCompare(right.name, undefined, { numeric: true })
      : left.type === "folder"
        ? -1
        : 1,
  );
  for (const child of folder.children) if (child.type === "folder") sortTree(child);
}
