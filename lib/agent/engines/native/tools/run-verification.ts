import { z } from "zod";
import { defineTool } from "./agent-tool";

export const runVerificationTool = defineTool({
  name: "run_verification",
  description:
    "Bundle the workspace as the preview does (esbuild + Tailwind) and type-check it (TypeScript, strict); returns file, line, column and message for every error. Run it after editing.",
  inputSchema: z.object({}).passthrough(),
  title: () => "Verify build",
  async execute(_input, context) {
    const result = await context.verify();
    const errors = result.diagnostics.filter((diagnostic) => diagnostic.severity === "error");
    if (!result.ok) {
      return {
        ok: false,
        code: "VERIFICATION_FAILED",
        message: `${errors.length} build error${errors.length === 1 ? "" : "s"}: ${errors
          .slice(0, 2)
          .map((error) => `${error.file ?? "?"}:${error.line ?? "?"} ${error.message}`)
          .join("; ")}`,
        details: { diagnostics: result.diagnostics },
        output: result,
      };
    }
    return {
      ok: true,
      summary: `build passed in ${result.duration_ms} ms`,
      details: { diagnostics: result.diagnostics },
      output: result,
    };
  },
});
