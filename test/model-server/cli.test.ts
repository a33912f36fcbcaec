import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const projectRoot = path.resolve(import.meta.dirname, "../..");

describe("npm run dev:model", () => {
  it("prints the URL and the env lines, serves, and stops on Ctrl-C", async () => {
    const child = spawn(
      process.execPath,
      [
        path.join(projectRoot, "node_modules/tsx/dist/cli.mjs"),
        "test/model-server/cli.ts",
        "--port",
        "0",
      ],
      { cwd: projectRoot, stdio: ["ignore", "pipe", "pipe"] },
    );
    let output = "";
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on("data", (chunk: Buffer) => {
          output += chunk.toString();
          const match = /^OPENAI_COMPATIBLE_BASE_URL=(\S+)$/m.exec(output);
          if (match?.[1] && output.includes("Ctrl-C")) resolve(match[1]);
        });
        void exited.then(() => reject(new Error(`the CLI exited early:\n${output}`)));
      });
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      expect(output).toMatch(/^OPENAI_COMPATIBLE_MODELS=dev-demo,happy-path,/m);
      expect(output).toContain("not a product mode");
      const models = (await (await fetch(`${url}/models`)).json()) as { data: unknown[] };
      expect(models.data.length).toBeGreaterThan(5);
    } finally {
      child.kill("SIGINT");
    }
    expect(await exited).toBe(0);
  });
});
