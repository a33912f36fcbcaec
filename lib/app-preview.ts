import "server-only";
import type { Executor } from "@/db/client";
import { buildPreview, type PreviewBuild, renderPreviewDocument } from "@/lib/preview";
import { decodeText, getPublishedApp, readAllFiles } from "@/lib/workspace";

/** Bundles one revision of an app (cached per revision by the preview builder). */
export async function buildRevisionPreview(
  db: Executor,
  { appId, revisionId }: { appId: string; revisionId?: string | null },
): Promise<{
  revisionId: string;
  build: PreviewBuild;
  indexHtml: string | undefined;
  files: Map<string, Uint8Array>;
}> {
  const { revision, files } = await readAllFiles(db, { appId, revisionId });
  const build = await buildPreview({ key: revision.id, appId, files });
  const indexBytes = files.get("index.html");
  return {
    revisionId: revision.id,
    build,
    indexHtml: indexBytes ? (decodeText(indexBytes) ?? undefined) : undefined,
    files,
  };
}

/** The sandboxed HTML document for a revision: the app, or its build errors as an overlay. */
export async function renderRevisionDocument(
  db: Executor,
  input: {
    appId: string;
    revisionId?: string | null;
    title?: string;
    /** The draft preview reports runtime errors to the builder; a published app does not. */
    reportRuntimeErrors?: boolean;
  },
): Promise<Response> {
  const { build, indexHtml } = await buildRevisionPreview(db, input);
  const document = renderPreviewDocument({
    build,
    indexHtml,
    title: input.title,
    reportRuntimeErrors: input.reportRuntimeErrors,
  });
  return new Response(document.html, {
    status: 200,
    headers: document.headers,
  });
}

/** The published app at /p/{slug}: its pinned revision, isolated exactly like the preview. */
export async function renderPublishedDocument(
  db: Executor,
  { slug }: { slug: string },
): Promise<Response> {
  const app = await getPublishedApp(db, { slug });
  return renderRevisionDocument(db, {
    appId: app.id,
    revisionId: app.publishedRevisionId,
    title: app.name,
  });
}
