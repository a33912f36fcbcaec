import { expect, type Locator, type Page } from "@playwright/test";

declare global {
  interface Window {
    /** Every status each tool row showed, by call id, recorded by `recordToolStatuses`. */
    __agentToolStatuses?: Record<string, string[]>;
  }
}

/** The agent panel on the workspace page: conversation, composer, model picker, checkpoints. */
export class AgentPanel {
  readonly root: Locator;

  constructor(private readonly page: Page) {
    this.root = page.getByTestId("agent-panel");
  }

  get input(): Locator {
    return this.root.getByTestId("agent-composer-input");
  }

  get sendButton(): Locator {
    return this.root.getByTestId("agent-send");
  }

  get stopButton(): Locator {
    return this.root.getByTestId("agent-stop");
  }

  get conversation(): Locator {
    return this.root.getByTestId("agent-conversation");
  }

  get turns(): Locator {
    return this.root.getByTestId("agent-turn");
  }

  get lastTurn(): Locator {
    return this.turns.last();
  }

  get lastReply(): Locator {
    return this.lastTurn.getByTestId("agent-reply");
  }

  toolRows(turn: Locator = this.lastTurn): Locator {
    return turn.getByTestId("agent-tool-row");
  }

  toolRow(tool: string, status: string, turn: Locator = this.lastTurn): Locator {
    return turn.locator(
      `[data-testid="agent-tool-row"][data-tool="${tool}"][data-status="${status}"]`,
    );
  }

  get engineMenu(): Locator {
    return this.root.getByTestId("engine-menu");
  }

  engineOption(engineId: string): Locator {
    return this.root.getByTestId(`engine-option-${engineId}`);
  }

  engineReason(engineId: string): Locator {
    return this.root.getByTestId(`engine-reason-${engineId}`);
  }

  get approvalPolicy(): Locator {
    return this.root.getByTestId("approval-policy");
  }

  approvalCards(turn: Locator = this.lastTurn): Locator {
    return turn.getByTestId("approval-card");
  }

  async chooseEngine(engineId: string): Promise<void> {
    await this.engineMenu.selectOption(engineId);
  }

  get modelPicker(): Locator {
    return this.root.getByTestId("agent-model-picker");
  }

  modelOption(modelId: string): Locator {
    return this.root.locator(`[data-testid="agent-model-option"][data-model-id="${modelId}"]`);
  }

  /** Types a message and sends it with Enter, as a person would. */
  async send(message: string) {
    await this.input.click();
    await this.input.fill(message);
    await this.input.press("Enter");
  }

  async chooseModel(modelId: string) {
    await this.modelPicker.click();
    await expect(this.root.getByTestId("agent-model-options")).toBeVisible();
    await this.modelOption(modelId).click();
    await expect(this.modelPicker).toHaveAttribute("data-model-id", modelId);
  }

  /** Waits for the last turn's run to end and returns how (completed, failed, cancelled). */
  async waitForLastRun(timeout = 60_000): Promise<string> {
    await expect(this.lastTurn).toHaveAttribute("data-status", /^(completed|failed|cancelled)$/, {
      timeout,
    });
    await expect(this.sendButton).toBeVisible();
    return (await this.lastTurn.getAttribute("data-status")) as string;
  }

  async openCheckpoints(): Promise<Locator> {
    await this.root.getByTestId("agent-open-checkpoints").click();
    const list = this.root.getByTestId("agent-checkpoints");
    await expect(list).toBeVisible();
    return list;
  }

  /** Restores the checkpoint of `kind` made for `runId`, confirming the dialog. */
  async restoreCheckpoint(kind: "pre_run" | "post_run", runId: string) {
    const list = await this.openCheckpoints();
    await list
      .locator(`[data-testid="agent-checkpoint"][data-kind="${kind}"][data-run-id="${runId}"]`)
      .getByTestId("agent-checkpoint-restore")
      .click();
    await this.confirmRestore();
  }

  async confirmRestore() {
    const dialog = this.page.getByTestId("agent-restore-dialog");
    await expect(dialog).toBeVisible();
    await dialog.getByTestId("confirm-dialog-confirm").click();
    await expect(dialog).toBeHidden();
  }

  /**
   * Records every status each tool row shows from now on, so a test can tell that a row was
   * running before it settled even when the run is quicker than a poll.
   */
  async recordToolStatuses() {
    await this.page.evaluate(() => {
      const seen: Record<string, string[]> = {};
      window.__agentToolStatuses = seen;
      const record = () => {
        for (const row of document.querySelectorAll<HTMLElement>(
          '[data-testid="agent-tool-row"]',
        )) {
          const callId = row.dataset.callId ?? "";
          const history = seen[callId] ?? [];
          seen[callId] = history;
          if (history.at(-1) !== row.dataset.status) history.push(row.dataset.status ?? "");
        }
      };
      new MutationObserver(record).observe(document.body, {
        subtree: true,
        childList: true,
        attributes: true,
        attributeFilter: ["data-status"],
      });
      record();
    });
  }

  async recordedToolStatuses(): Promise<string[][]> {
    return this.page.evaluate(() => Object.values(window.__agentToolStatuses ?? {}));
  }
}
