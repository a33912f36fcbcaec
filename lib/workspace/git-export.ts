import "server-only";
import fs from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { zipSync } from "fflate";
import git from "isomorphic-git";
import type { Executor } from "@/db/client";
import { listRevisions } from "@/db/queries/revisions";
import type { RevisionRow } from "@/db/schema";
import { getApp } from "./apps";
import { sha256Hex } from "./content";
import { readAllFiles } from "./read-files";

const author = { name: "Patchwork", email: "patchwork@localhost" };

/**
 * The app's history as a bare git repository, zipped (`<slug>.git/`): one commit per revision in
 * history order (parents follow the revisions' parents; message, author "Patchwork", the
 * revision's date), `main` at the draft head. Built with isomorphic-git in a temporary folder.
 */
export async function exportGitRepository(
  db: Executor,
  { appId }: { appId: string },
): Promise<{ archive: Uint8Array; name: string }> {
  const app = await getApp(db, { appId });
  const revisions = (await listRevisions(db, { appId, limit: 10_000 })).reverse();
  const directory = await mkdtemp(path.join(os.tmpdir(), "patchwork-git-"));
  try {
    const gitdir = directory;
    await git.init({ fs, gitdir, bare: true, defaultBranch: "main" });
    const blobs = new Map<string, string>();
    const commits = new Map<string, string>();
    for (const revision of revisions) {
      const { files } = await readAllFiles(db, { appId, revisionId: revision.id });
      const tree = await writeTree(gitdir, files, blobs);
      const parent = revision.parentRevisionId ? commits.get(revision.parentRevisionId) : undefined;
      const when = timestamp(revision);
      commits.set(
        revision.id,
        await git.writeCommit({
          fs,
          gitdir,
          commit: {
            message: `${revision.message || `${revision.source} revision`}\n\nPatchwork-Revision: ${revision.id}\nPatchwork-Source: ${revision.source}\n`,
            tree,
            parent: parent ? [parent] : [],
            author: { ...author, ...when },
            committer: { ...author, ...when },
          },
        }),
      );
    }
    const head = app.draftRevisionId ? commits.get(app.draftRevisionId) : undefined;
    if (head) await git.writeRef({ fs, gitdir, ref: "refs/heads/main", value: head, force: true });
    const name = `${app.slug}.git`;
    const entries: Record<string, Uint8Array> = {};
    for (const file of await listFilesUnder(directory))
      entries[`${name}/${path.relative(directory, file).split(path.sep).join("/")}`] =
        new Uint8Array(await readFile(file));
    return { archive: zipSync(entries), name };
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

function timestamp(revision: RevisionRow) {
  return { timestamp: Math.floor(revision.createdAt.getTime() / 1000), timezoneOffset: 0 };
}

type Node = Map<string, Node | Uint8Array>;

async function writeTree(
  gitdir: string,
  files: Map<string, Uint8Array>,
  blobs: Map<string, string>,
): Promise<string> {
  const root: Node = new Map();
  for (const [filePath, bytes] of files) {
    const parts = filePath.split("/");
    let node = root;
    for (const part of parts.slice(0, -1)) {
      if (!node.has(part)) node.set(part, new Map());
      node = node.get(part) as Node;
    }
    node.set(parts.at(-1)!, bytes);
  }
  const write = async (node: Node): Promise<string> => {
    const tree = [];
    for (const [name, child] of node) {
      if (child instanceof Map) {
        tree.push({ mode: "040000", path: name, oid: await write(child), type: "tree" as const });
        continue;
      }
      const key = sha256Hex(child);
      let oid = blobs.get(key);
      if (!oid) {
        oid = await git.writeBlob({ fs, gitdir, blob: child });
        blobs.set(key, oid);
      }
      tree.push({ mode: "100644", path: name, oid, type: "blob" as const });
    }
    return git.writeTree({ fs, gitdir, tree });
  };
  return write(root);
}

async function listFilesUnder(directory: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(directory, { withFileTypes: true })) {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) found.push(...(await listFilesUnder(full)));
    else found.push(full);
  }
  return found;
}
