import { afterEach, describe, expect, it } from "vitest";
import { checkKeyedProviders } from "./provider-reachability";
import { setUpModelEnvironment } from "./test-environment";
import { sendJson, startTestJsonServer, type TestJsonServer } from "./test-json-server";

const setEnvironment = setUpModelEnvironment();
const servers: TestJsonServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(
  status: number,
  seen: Record<string, string | undefined>[] = [],
): Promise<TestJsonServer> {
  const server = await startTestJsonServer((request, response) => {
    seen.push({
      url: request.url,
      authorization: request.headers.authorization,
      "x-api-key": request.headers["x-api-key"] as string | undefined,
      "anthropic-version": request.headers["anthropic-version"] as string | undefined,
    });
    sendJson(response, status, { data: [] });
  });
  servers.push(server);
  return server;
}

describe("checkKeyedProviders", () => {
  it("says which key to set for a provider without one, and calls nobody", async () => {
    setEnvironment({});
    const checks = await checkKeyedProviders();
    expect(checks.map((check) => [check.provider, check.state])).toEqual([
      ["openai", "no_key"],
      ["anthropic", "no_key"],
      ["google", "no_key"],
    ]);
    expect(checks[1]).toMatchObject({ fix: "Set ANTHROPIC_API_KEY." });
  });

  it("lists models with each provider's own key header and reports them reachable", async () => {
    const openaiSeen: Record<string, string | undefined>[] = [];
    const anthropicSeen: Record<string, string | undefined>[] = [];
    const openai = await serve(200, openaiSeen);
    const anthropic = await serve(200, anthropicSeen);
    setEnvironment({
      OPENAI_API_KEY: "sk-openai-secret",
      OPENAI_BASE_URL: `${openai.origin}/v1`,
      ANTHROPIC_API_KEY: "sk-ant-secret",
      ANTHROPIC_BASE_URL: anthropic.origin,
    });
    const checks = await checkKeyedProviders();
    expect(checks.slice(0, 2)).toEqual([
      {
        provider: "openai",
        displayName: "OpenAI",
        state: "reachable",
        endpoint: `${openai.origin}/v1/models`,
      },
      {
        provider: "anthropic",
        displayName: "Anthropic",
        state: "reachable",
        endpoint: `${anthropic.origin}/v1/models`,
      },
    ]);
    expect(openaiSeen).toEqual([
      expect.objectContaining({ url: "/v1/models", authorization: "Bearer sk-openai-secret" }),
    ]);
    expect(anthropicSeen).toEqual([
      expect.objectContaining({
        url: "/v1/models",
        authorization: undefined,
        "x-api-key": "sk-ant-secret",
        "anthropic-version": "2023-06-01",
      }),
    ]);
  });

  it("tells a refused key from an endpoint that is down, and never repeats the key", async () => {
    const refusing = await serve(401);
    const down = await startTestJsonServer(() => {});
    const downOrigin = down.origin;
    await down.close();
    setEnvironment({
      OPENAI_API_KEY: "sk-openai-secret",
      OPENAI_BASE_URL: `${refusing.origin}/v1`,
      ANTHROPIC_API_KEY: "sk-ant-secret",
      ANTHROPIC_BASE_URL: downOrigin,
    });
    const [openai, anthropic] = await checkKeyedProviders({ timeoutMs: 2000 });
    expect(openai).toMatchObject({
      state: "unreachable",
      problem: expect.stringMatching(/^answered 401/),
      fix: "Check OPENAI_API_KEY: the provider refused it.",
    });
    expect(anthropic).toMatchObject({
      state: "unreachable",
      problem: "refused the connection",
      fix: "Check the network and ANTHROPIC_BASE_URL.",
    });
    expect(JSON.stringify([openai, anthropic])).not.toMatch(/secret/);
  });
});
