export { allowedPreviewPackages } from "./allowed-packages";
export {
  buildPreview,
  createPreviewBuilder,
  type PreviewBuilder,
  type PreviewBuilderOptions,
  type PreviewBuilderStats,
  previewSourceMap,
} from "./build-preview";
export { previewContentSecurityPolicy, sha256Source } from "./content-security-policy";
export { formatDiagnosticLocation } from "./error-overlay";
export type {
  PreviewBuild,
  PreviewBuildInput,
  PreviewDiagnostic,
  PreviewFileContent,
} from "./preview-types";
export { type PreviewDocument, renderPreviewDocument } from "./render-preview-document";
