// The one error a worker failure produces. The message always names the module, the event and the cause, so
// the agent can show it as-is; `reason` lets callers (and tests) tell the failure modes apart.

export const WORKER_FAILURES = [
  "timeout",
  "crash",
  "exit",
  "malformed",
  "oversize",
  "wrong_id",
  "error_reply",
  "handshake",
  "spawn",
] as const;
export type WorkerFailure = (typeof WORKER_FAILURES)[number];

export class WorkerError extends Error {
  constructor(
    readonly module: string,
    readonly event: string,
    readonly reason: WorkerFailure,
    /** the cause alone, without the module and event */
    readonly detail: string,
  ) {
    super(`worker "${module}" failed on event "${event}": ${detail}`);
    this.name = "WorkerError";
  }
}
