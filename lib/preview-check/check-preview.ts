import "server-only";
import { type AppLocation, locateFirstAppFrame } from "@/lib/preview/locate-runtime-error";
import type { PreviewBuild } from "@/lib/preview/preview-types";
import { renderPreviewDocument } from "@/lib/preview/render-preview-document";
import { checkBrowser } from "./check-browser";

/** One problem the app showed in the browser. */
export interface BrowserProblem {
  kind: "error" | "console.error" | "request";
  message: string;
  location: AppLocation | null;
}

export type BrowserCheck =
  | {
      status: "passed" | "failed";
      problems: BrowserProblem[];
      /** What the page shows, trimmed: lets the model see "Loading…" forever or an empty page. */
      visibleText: string;
      /** A small JPEG of the page, for the panel's row and for models that take images. */
      screenshot: Buffer;
      durationMs: number;
    }
  | { status: "skipped"; reason: string; durationMs: number };

// The document is served to the browser by interception at this address; nothing else loads.
const checkUrl = "http://patchwork-check.localhost/";

/**
 * Loads a built preview in headless Chromium and reports what a person would see go wrong:
 * uncaught exceptions, console errors, failed requests, the page's visible text and a screenshot.
 * No network: the document comes from memory and every other request is refused (the app's
 * external images or APIs are not its bugs, and the check must not reach anything).
 */
export async function checkPreviewInBrowser(
  build: PreviewBuild,
  {
    indexHtml,
    timeoutMs = 10_000,
    sourceMap = async () => null,
  }: {
    indexHtml?: string;
    timeoutMs?: number;
    /** The bundle's source map, asked for only when something threw. */
    sourceMap?: () => Promise<string | null>;
  } = {},
): Promise<BrowserCheck> {
  const startedAt = performance.now();
  const elapsed = () => Math.round(performance.now() - startedAt);
  const available = await checkBrowser();
  if ("unavailable" in available) {
    return { status: "skipped", reason: available.unavailable, durationMs: elapsed() };
  }
  const previewDocument = renderPreviewDocument({ build, indexHtml });
  const bundleLine = previewDocument.bundleLine;
  const context = await available.browser.newContext({
    viewport: { width: 1024, height: 720 },
    serviceWorkers: "block",
  });
  const problems: BrowserProblem[] = [];
  const stacks = new Map<BrowserProblem, string>();
  const framesOf = (stack: string) => {
    const frames = [];
    for (const line of stack.split("\n")) {
      if (!line.includes(checkUrl) || bundleLine === null) continue;
      const match = /:(\d+):(\d+)\)?\s*$/.exec(line);
      if (match) frames.push({ line: Number(match[1]) - bundleLine + 1, column: Number(match[2]) });
    }
    return frames;
  };
  const add = (problem: BrowserProblem) => {
    if (problems.length >= 20) return;
    if (problems.some((known) => known.kind === problem.kind && known.message === problem.message))
      return;
    problems.push(problem);
  };
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(timeoutMs);
    await page.route("**/*", (route) =>
      route.request().url() === checkUrl
        ? route.fulfill({
            status: 200,
            headers: previewDocument.headers,
            body: previewDocument.html,
          })
        : route.abort("blockedbyclient"),
    );
    page.on("pageerror", (error) => {
      const problem: BrowserProblem = {
        kind: "error",
        message: `${error.name}: ${error.message}`.slice(0, 2000),
        location: null,
      };
      add(problem);
      if (error.stack) stacks.set(problem, error.stack);
    });
    page.on("console", (message) => {
      if (message.type() !== "error") return;
      const text = message.text();
      // The refused outside requests show up as console errors too; they are not the app's.
      if (/net::ERR_BLOCKED_BY_CLIENT/.test(text)) return;
      add({ kind: "console.error", message: text.slice(0, 2000), location: null });
    });
    page.on("requestfailed", (request) => {
      const failure = request.failure()?.errorText ?? "failed";
      if (failure.includes("ERR_BLOCKED_BY_CLIENT")) return;
      add({ kind: "request", message: `${request.url()} ${failure}`, location: null });
    });
    await page.goto(checkUrl, { waitUntil: "load", timeout: timeoutMs });
    // Effects and the first state updates run after load; give them a moment.
    await page.waitForTimeout(400);
    const visibleText = (await page.evaluate(() => document.body?.innerText ?? "").catch(() => ""))
      .replace(/\s+\n/g, "\n")
      .trim()
      .slice(0, 1500);
    const screenshot = await page.screenshot({ type: "jpeg", quality: 55, scale: "css" });
    // Placed in the app's files with the source map, made only now that something threw.
    const thrown = problems.filter((problem) => stacks.has(problem));
    if (thrown.length > 0) {
      const map = await sourceMap();
      for (const problem of thrown) {
        problem.location = locateFirstAppFrame(map, framesOf(stacks.get(problem) ?? ""));
      }
    }
    return {
      status: problems.length === 0 ? "passed" : "failed",
      problems,
      visibleText,
      screenshot,
      durationMs: elapsed(),
    };
  } finally {
    await context.close();
  }
}
