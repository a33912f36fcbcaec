import { type APIRequestContext, expect } from "@playwright/test";

/**
 * Talks to the HTTP API the way a script would (no Origin header), to set up state and to check
 * what the UI did. The browser under test never uses this.
 */
export class PatchworkApi {
  constructor(private readonly request: APIRequestContext) {}

  async listApps(): Promise<{ id: string; name: string; public_path: string | null }[]> {
    const response = await this.request.get("/api/apps");
    expect(response.status()).toBe(200);
    return (await response.json()).apps;
  }

  async createApp(name: string): Promise<{ id: string; slug: string; name: string }> {
    const response = await this.request.post("/api/apps", { data: { name } });
    expect(response.status()).toBe(201);
    return (await response.json()).app;
  }

  async getApp(appId: string) {
    return this.request.get(`/api/apps/${appId}`);
  }

  async publish(appId: string) {
    const response = await this.request.post(`/api/apps/${appId}/publish`, { data: {} });
    expect(response.status()).toBe(200);
    return (await response.json()).app as { public_path: string };
  }

  async readFile(appId: string, path: string): Promise<string> {
    const response = await this.request.get(`/api/apps/${appId}/files/${path}`);
    expect(response.status()).toBe(200);
    return (await response.json()).content;
  }

  /** Saves a file on the draft head, as the editor's Save would. */
  async saveFile(appId: string, path: string, content: string): Promise<string> {
    const app = await (await this.getApp(appId)).json();
    const response = await this.request.put(`/api/apps/${appId}/files/${path}`, {
      data: { content, base_revision_id: app.app.draft_revision_id },
    });
    expect(response.status(), await response.text()).toBe(201);
    return (await response.json()).revision.id;
  }
}
