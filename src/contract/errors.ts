// A user mistake is reported as one clear line and a non-zero exit, never a stack trace.

/** An error caused by the user's input (flag, config file, binding). Exit code 2 by default. */
export class UserError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode = 2) {
    super(message);
    this.name = "UserError";
    this.exitCode = exitCode;
  }
}

/** The message of anything thrown (a non-Error value is shown as a string). */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
