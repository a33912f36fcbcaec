import { existsSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { type Browser, chromium, type Page } from "@playwright/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { starterHeading, starterTemplateFiles } from "@/lib/workspace/starter-template";
import { createPreviewBuilder } from "./build-preview";
import { renderPreviewDocument } from "./render-preview-document";

const chromiumPath = "/usr/bin/chromium";
const sandbox = "allow-scripts allow-forms allow-popups allow-modals";

// Preview code that tries what a malicious or confused app would: read and change the builder's
// data with the user's cookies. It reports the outcome in the page for the test to read.
const probeSource = `
const probe = document.createElement("output");
probe.id = "fetch-probe";
document.body.append(probe);
const attempts = [
  fetch("/api/apps", { credentials: "include" }),
  fetch("/api/apps", { method: "POST", credentials: "include", headers: { "content-type": "text/plain" }, body: "{}" }),
];
Promise.allSettled(attempts.map((attempt) => attempt.then((response) => response.text())))
  .then((results) => {
    probe.textContent = results.map((result) => result.status === "fulfilled" ? "read:" + result.value : "failed:" + result.reason.name).join(" ");
  });
`;

interface RecordedRequest {
  method: string;
  cookie: string | undefined;
  origin: string | undefined;
}

describe.skipIf(!existsSync(chromiumPath))("preview isolation in Chromium", () => {
  const builder = createPreviewBuilder({ builderRoot: path.resolve(import.meta.dirname, "../..") });
  const apiRequests: RecordedRequest[] = [];
  const documents = new Map<string, { html: string; headers: Record<string, string> }>();
  let server: Server;
  let origin: string;
  let browser: Browser;

  beforeAll(async () => {
    const files = new Map(Object.entries(starterTemplateFiles));
    files.set("src/main.tsx", `${starterTemplateFiles["src/main.tsx"]}${probeSource}`);
    const build = await builder.build({ key: "isolation-probe", files });
    expect(build.diagnostics).toEqual([]);
    const preview = renderPreviewDocument({ build, indexHtml: starterTemplateFiles["index.html"] });

    server = createServer((request, response) => {
      const url = new URL(request.url ?? "/", "http://localhost");
      if (url.pathname === "/api/apps") {
        apiRequests.push(recordOf(request));
        // Like the builder: JSON for its own pages, no CORS grant for anyone else.
        response.writeHead(200, { "Content-Type": "application/json" });
        response.end('{"apps":["secret"]}');
        return;
      }
      const page = documents.get(url.pathname);
      if (!page) {
        response.writeHead(404).end();
        return;
      }
      response.writeHead(200, page.headers);
      response.end(page.html);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    documents.set("/preview", preview);
    // The same document with connect-src opened to the builder, to test the layers beneath CSP.
    documents.set("/preview-connectable", {
      html: preview.html,
      headers: {
        ...preview.headers,
        "Content-Security-Policy": preview.headers["Content-Security-Policy"].replace(
          "connect-src https: wss:",
          `connect-src https: wss: ${origin}`,
        ),
      },
    });
    for (const name of ["preview", "preview-connectable"]) {
      documents.set(`/host-${name}`, {
        html: `<!doctype html><title>Builder</title><iframe id="preview" sandbox="${sandbox}" src="/${name}"></iframe>`,
        headers: {
          "Content-Type": "text/html; charset=utf-8",
          // The builder's session cookie, as it would be set at sign-in.
          "Set-Cookie": "patchwork_session=secret-session; Path=/; HttpOnly; SameSite=Lax",
        },
      });
    }

    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    });
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
    await builder.dispose();
  });

  async function openPage(): Promise<Page> {
    const context = await browser.newContext();
    return context.newPage();
  }

  it("renders the starter in the sandboxed iframe, whose fetch of /api/apps never reaches the server", async () => {
    const page = await openPage();
    await page.goto(`${origin}/host-preview`);
    const frame = page.frameLocator("#preview");
    await expect
      .poll(() => frame.locator("h1").textContent({ timeout: 10_000 }))
      .toBe(starterHeading);
    await expect
      .poll(() => frame.locator("#fetch-probe").textContent({ timeout: 10_000 }))
      .toBe("failed:TypeError failed:TypeError");

    // Control: the cookie exists and the builder's own page sends it, so the checks above can fail.
    expect((await page.context().cookies()).map((cookie) => cookie.name)).toContain(
      "patchwork_session",
    );
    expect(apiRequests).toEqual([]);
    await page.evaluate(() => fetch("/api/apps", { credentials: "include" }));
    expect(apiRequests).toEqual([
      { method: "GET", cookie: "patchwork_session=secret-session", origin: undefined },
    ]);
    apiRequests.length = 0;
    await page.context().close();
  });

  it("stays in an opaque origin and off the API when the preview URL is opened directly in a tab", async () => {
    const page = await openPage();
    await page.goto(`${origin}/host-preview`);
    await page.goto(`${origin}/preview`);
    await expect
      .poll(() => page.locator("h1").textContent({ timeout: 10_000 }))
      .toBe(starterHeading);
    expect(await page.evaluate(() => window.origin)).toBe("null");
    await expect
      .poll(() => page.locator("#fetch-probe").textContent({ timeout: 10_000 }))
      .toBe("failed:TypeError failed:TypeError");
    expect(apiRequests).toEqual([]);
    await page.context().close();
  });

  it("sends no session cookie and reads no response even where CSP would let the request out", async () => {
    const page = await openPage();
    await page.goto(`${origin}/host-preview-connectable`);
    const frame = page.frameLocator("#preview");
    await expect
      .poll(() => frame.locator("h1").textContent({ timeout: 10_000 }))
      .toBe(starterHeading);
    await expect
      .poll(() => frame.locator("#fetch-probe").textContent({ timeout: 10_000 }))
      .toBe("failed:TypeError failed:TypeError");
    // The requests left the browser from the opaque origin, without the SameSite session cookie.
    expect(apiRequests.map(({ cookie, origin }) => ({ cookie, origin }))).toEqual(
      apiRequests.map(() => ({ cookie: undefined, origin: "null" })),
    );
    expect(apiRequests.some((request) => request.method === "POST")).toBe(true);
    apiRequests.length = 0;
    await page.context().close();
  });
});

function recordOf(request: IncomingMessage): RecordedRequest {
  return {
    method: request.method ?? "",
    cookie: request.headers.cookie,
    origin: request.headers.origin,
  };
}
