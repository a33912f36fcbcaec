import { expect } from "vitest";
import { api } from "./patchwork-server";
import { suiteDatabaseUrl } from "./scratch-postgres";
import type { RunEventData } from "./sse-client";

/** Where a run suite runs: PGlite always, and the Postgres named by TEST_DATABASE_URL. */
export interface RunTarget {
  name: "pglite" | "postgres";
  env: Record<string, string>;
}

export function runTargets(): RunTarget[] {
  const url = process.env.TEST_DATABASE_URL;
  return [
    { name: "pglite", env: {} },
    // A database of this suite's own: its servers' queue workers must execute only its runs.
    ...(url ? [{ name: "postgres" as const, env: { DATABASE_URL: suiteDatabaseUrl(url) } }] : []),
  ];
}

type Server = { url: string };

export interface AppJson {
  id: string;
  name: string;
  draft_revision_id: string;
}

export interface RunJson {
  id: string;
  app_id: string;
  status: "queued" | "running" | "waiting" | "completed" | "failed" | "cancelled";
  requested_model_id: string;
  resolved_model_id: string;
  execution_engine: string;
  base_revision_id: string;
  result_revision_id: string | null;
  output_text: string | null;
  error_code: string | null;
  error_message: string | null;
}

export function runsPath(appId: string): string {
  return `/api/apps/${appId}/coding-agent/runs`;
}

export function runPath(appId: string, runId: string): string {
  return `${runsPath(appId)}/${runId}`;
}

export async function createApp(server: Server, name: string): Promise<AppJson> {
  const response = await api(server, "/api/apps", { method: "POST", body: { name } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.app;
}

/** POSTs a run and expects 201; the run's answer, as created. */
export async function startRun(
  server: Server,
  appId: string,
  body: {
    input: string;
    model_id?: string | null;
    engine?: string;
    messages?: unknown[];
    approval_policy?: "ask" | "auto";
  },
): Promise<RunJson> {
  const response = await api(server, runsPath(appId), { method: "POST", body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.run;
}

export async function getRun(server: Server, appId: string, runId: string): Promise<RunJson> {
  const response = await api(server, runPath(appId, runId));
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.run;
}

export interface ApprovalJson {
  id: string;
  kind: string;
  description: string;
  context: { diff?: string; paths?: string[]; command?: string; cwd?: string };
  decision: string | null;
  decided_by: string | null;
}

/** Polls the run until it has an undecided approval request, and returns it. */
export async function pendingApproval(
  server: Server,
  appId: string,
  runId: string,
  timeoutMs = 20_000,
): Promise<ApprovalJson> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await api(server, runPath(appId, runId));
    expect(response.status).toBe(200);
    const pending = (response.body.approvals as ApprovalJson[]).find(
      (approval) => approval.decision === null,
    );
    if (pending) return pending;
    if (Date.now() > deadline) throw new Error("no pending approval appeared");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** POSTs a decision on an approval request; the caller asserts the answer. */
export function decideApproval(
  server: Server,
  appId: string,
  runId: string,
  approvalId: string,
  decision: string,
) {
  return api(server, `${runPath(appId, runId)}/approvals/${approvalId}`, {
    method: "POST",
    body: { decision },
  });
}

/** POSTs a cancel; the caller asserts the answer (202 while active, 200 after the end, 404). */
export function cancelRun(server: Server, appId: string, runId: string) {
  return api(server, `${runPath(appId, runId)}/cancel`, { method: "POST" });
}

/** Polls until the run leaves queued/running; fails after `timeoutMs`. */
export async function waitForRunEnd(
  server: Server,
  appId: string,
  runId: string,
  timeoutMs = 30_000,
): Promise<RunJson> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = await getRun(server, appId, runId);
    if (run.status !== "queued" && run.status !== "running") return run;
    if (Date.now() > deadline)
      throw new Error(`Run ${runId} was still ${run.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The PRODUCT §2 error envelope, exactly: no other keys at either level. */
export function expectErrorEnvelope(
  response: { status: number; body: unknown },
  status: number,
  code: string,
): void {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body).toEqual({
    error: expect.objectContaining({ code, message: expect.stringMatching(/\S/) }),
  });
  const { error } = response.body as { error: Record<string, unknown> };
  const allowedKeys = ["code", "message", "details"];
  expect(Object.keys(error).filter((key) => !allowedKeys.includes(key))).toEqual([]);
}

/** Asserts seq is exactly 1..n in order and every frame names this run. */
export function expectGaplessRun(
  events: RunEventData[],
  run: { id: string; app_id: string },
): void {
  expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
  for (const event of events) {
    expect(event).toMatchObject({ run_id: run.id, app_id: run.app_id });
    expect(Number.isNaN(Date.parse(event.ts))).toBe(false);
  }
}

export function eventsOfType(events: RunEventData[], type: string): RunEventData[] {
  return events.filter((event) => event.type === type);
}

/** The run's assistant text, as the chat would show it. */
export function assistantText(events: RunEventData[]): string {
  return eventsOfType(events, "assistant.delta")
    .map((event) => event.payload.text as string)
    .join("");
}

export async function readDraftFile(server: Server, appId: string, path: string): Promise<string> {
  const response = await api(server, `/api/apps/${appId}/files/${path}`);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.content;
}

export async function listRevisions(
  server: Server,
  appId: string,
): Promise<{
  draft_revision_id: string;
  revisions: {
    id: string;
    source: string;
    run_id: string | null;
    parent_revision_id: string | null;
  }[];
}> {
  const response = await api(server, `/api/apps/${appId}/revisions`);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

/** A deterministic PRNG (mulberry32), so a failing random schedule can be replayed from its seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}
