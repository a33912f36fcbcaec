/** Why a run failed, with the code that ends up in `run.failed` and on the run row. */
export class RunFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(message, options);
    this.name = "RunFailure";
  }

  static isInstance(value: unknown): value is RunFailure {
    return value instanceof Error && value.name === "RunFailure" && "code" in value;
  }
}

/** Marks an abort caused by a cancel request, so the executor ends the run as cancelled. */
export class RunCancelled extends Error {
  constructor() {
    super("The run was cancelled.");
    this.name = "RunCancelled";
  }

  static isInstance(value: unknown): value is RunCancelled {
    return value instanceof Error && value.name === "RunCancelled";
  }
}
