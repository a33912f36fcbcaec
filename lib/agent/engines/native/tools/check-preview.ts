import { z } from "zod";
import { defineTool } from "./agent-tool";

export const checkPreviewTool = defineTool({
  name: "check_preview",
  description:
    "Check the app as a person would: bundle it, type-check it, and load it in a real browser (headless Chromium), collecting uncaught exceptions, console errors and failed requests (mapped to file:line) and the text the page shows. Use it after changes that affect what the page renders, and before you say you are done.",
  inputSchema: z.object({}).passthrough(),
  title: () => "Check the app in a browser",
  async execute(_input, context) {
    const check = await context.check();
    const output = {
      verdict: check.verdict,
      summary: check.summary,
      problems: check.problems,
      visible_text: check.visibleText,
      // The screenshot, for models that take images (split out before the model sees JSON).
      image: check.screenshot
        ? {
            data: check.screenshot.replace(/^data:image\/jpeg;base64,/, ""),
            mediaType: "image/jpeg",
          }
        : null,
    };
    const details = {
      diagnostics: check.diagnostics.map((diagnostic) => ({ ...diagnostic })),
      screenshot: check.screenshot,
      visible_text: check.visibleText,
      verdict: check.verdict,
    };
    if (check.verdict === "broken") {
      return {
        ok: false,
        code: "VERIFICATION_FAILED",
        message: `${check.summary}: ${check.problems.slice(0, 2).join("; ")}`,
        output,
        details,
      };
    }
    return { ok: true, summary: check.summary, output, details };
  },
});
