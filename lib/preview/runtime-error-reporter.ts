/**
 * The script the draft preview runs before the app: it reports uncaught errors, unhandled
 * rejections and `console.error` calls to the builder with `postMessage`, so the builder can say
 * the app is broken instead of "Built". The frame keeps its opaque origin; the builder accepts
 * these messages only from its own preview frame and checks their shape
 * (`components/workspace/preview-messages.ts`). Published apps do not get this script.
 *
 * Positions are sent in the bundle's own coordinates (line 1 = the bundle's first line), which
 * the builder maps back to the app's files with the bundle's source map.
 */

/** The `type` of every message the reporter posts. */
export const previewErrorMessageType = "patchwork:preview-error";

/** At most this many reports per page load; a render loop must not flood the builder. */
export const maximumReportsPerLoad = 20;

/** Stands for the bundle's first line in the document until it is known. */
export const bundleLinePlaceholder = "__PATCHWORK_BUNDLE_LINE__";

// One line on purpose: inserted before the bundle, it must not move the bundle's lines.
const reporterSource = `(() => {
  const bundleLine = ${bundleLinePlaceholder};
  const here = String(location.href).split("#")[0];
  const seen = new Set();
  let count = 0;
  const framesOf = (stack) => {
    const frames = [];
    for (const text of String(stack || "").split("\\n")) {
      if (text.indexOf(here) < 0) continue;
      const match = /:(\\d+):(\\d+)\\)?\\s*$/.exec(text);
      if (!match) continue;
      const line = Number(match[1]) - bundleLine + 1;
      if (line >= 1) frames.push({ line, column: Number(match[2]) });
      if (frames.length >= 8) break;
    }
    return frames;
  };
  const describe = (value) => {
    if (value instanceof Error) return (value.name ? value.name + ": " : "") + value.message;
    if (typeof value === "string") return value;
    try { return JSON.stringify(value); } catch { return String(value); }
  };
  const report = (kind, message, stack) => {
    const text = String(message).slice(0, 2000);
    const key = kind + "\\u0000" + text;
    if (seen.has(key) || count >= ${maximumReportsPerLoad}) return;
    seen.add(key);
    count += 1;
    try {
      parent.postMessage({ type: "${previewErrorMessageType}", kind, message: text, frames: framesOf(stack) }, "*");
    } catch {}
  };
  addEventListener("error", (event) => {
    const error = event.error;
    const stack = error && error.stack ? error.stack : "at (" + here + ":" + event.lineno + ":" + event.colno + ")";
    report("error", error ? describe(error) : event.message, stack);
  });
  addEventListener("unhandledrejection", (event) => {
    const reason = event.reason;
    report("unhandledrejection", describe(reason), reason && reason.stack);
  });
  const consoleError = console.error;
  console.error = function (...values) {
    try {
      const error = values.find((value) => value instanceof Error);
      report("console.error", values.map(describe).join(" "), error && error.stack);
    } catch {}
    return consoleError.apply(this, values);
  };
})();`
  .split("\n")
  .map((line) => line.trim())
  .join(" ");

/** The reporter for a document whose bundle starts on `bundleLine` (one-based). */
export function runtimeErrorReporter(bundleLine: number | string): string {
  return reporterSource.replace(bundleLinePlaceholder, String(bundleLine));
}
