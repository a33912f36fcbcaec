/** One problem found while bundling a revision, in the app's own coordinates. */
export interface PreviewDiagnostic {
  /** Workspace-relative path, e.g. "src/App.tsx"; null when the problem has no single file. */
  file: string | null;
  /** One-based line, as editors show it. */
  line: number | null;
  /** One-based column, as editors show it. */
  column: number | null;
  message: string;
  severity: "error" | "warning";
}

/** The result of bundling one revision; immutable once returned and shared through the cache. */
export interface PreviewBuild {
  /** True when `js` is present and no diagnostic is an error. */
  ok: boolean;
  /** The revision id the build was made for; the cache key. */
  key: string;
  /** The app's JavaScript as one ES module, ready to inline; null when the build failed. */
  js: string | null;
  /** Tailwind-compiled CSS for the whole app; null when it failed or the app imports no CSS. */
  css: string | null;
  diagnostics: PreviewDiagnostic[];
  /** ISO timestamp of when the bundle was produced. */
  builtAt: string;
  durationMs: number;
  /** Workspace-relative path of the module script index.html loads, e.g. "src/main.tsx". */
  entry: string;
}

/** A file's content as the workspace store hands it over: text or raw bytes. */
export type PreviewFileContent = Uint8Array | string;

/** What buildPreview needs to bundle one revision. */
export interface PreviewBuildInput {
  /** The revision id; builds are cached under it, so the same key must mean the same files. */
  key: string;
  /** Workspace-relative path → content for every file of the revision. */
  files: ReadonlyMap<string, PreviewFileContent>;
  /**
   * The app the revision belongs to. Builds of one app share an esbuild context, so any revision
   * of it after the first is an incremental rebuild. Preferred over `previousKey`.
   */
  appId?: string;
  /**
   * An earlier revision of the same app; when `appId` is absent, the context that built it is
   * reused for this build.
   */
  previousKey?: string;
}
