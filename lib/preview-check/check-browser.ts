import "server-only";
import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

/** Where the check's Chromium is: PATCHWORK_CHROMIUM_PATH, else Debian's package. */
export function chromiumPath(): string {
  return process.env.PATCHWORK_CHROMIUM_PATH || "/usr/bin/chromium";
}

// One browser per process, started on first use and reused; each check gets a fresh context.
const holder = globalThis as { patchworkCheckBrowser?: Promise<Browser> };

/** The process's browser, or why there is none (the check is then skipped, saying so). */
export async function checkBrowser(): Promise<{ browser: Browser } | { unavailable: string }> {
  const executablePath = chromiumPath();
  if (!existsSync(executablePath)) {
    return {
      unavailable: `Chromium was not found at ${executablePath}; install it (apt-get install -y chromium) or set PATCHWORK_CHROMIUM_PATH.`,
    };
  }
  holder.patchworkCheckBrowser ??= chromium
    .launch({
      executablePath,
      headless: true,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    })
    .then((browser) => {
      browser.on("disconnected", () => {
        holder.patchworkCheckBrowser = undefined;
      });
      return browser;
    });
  try {
    return { browser: await holder.patchworkCheckBrowser };
  } catch (error) {
    holder.patchworkCheckBrowser = undefined;
    return { unavailable: `Chromium could not start: ${(error as Error).message.split("\n")[0]}` };
  }
}

/** Closes the process's browser (tests, shutdown). */
export async function closeCheckBrowser(): Promise<void> {
  const running = holder.patchworkCheckBrowser;
  holder.patchworkCheckBrowser = undefined;
  if (running) await (await running.catch(() => null))?.close();
}
