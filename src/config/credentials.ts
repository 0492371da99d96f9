// Credentials never belong in argv or JSON settings: argv is visible to every process and settings get
// shared. The flag names here and the key shapes of key-shapes.ts catch the common ones.
import { UserError } from "../contract/errors.ts";
import { hasKeyShape } from "./key-shapes.ts";

const SECRET_FLAG = /^--?(api[-_]?key|token|secret|password|passwd|auth|access[-_]?key|bearer)(=.*)?$/i;

/** Why an argv element looks like a credential, or undefined when it does not. */
export function credentialReason(arg: string): string | undefined {
  if (SECRET_FLAG.test(arg)) return "a flag that passes a secret";
  if (hasKeyShape(arg)) return "an API-key-shaped token";
  return undefined;
}

/**
 * Refuse a worker argv element that looks like a credential, whichever file gave it (bindings.json, a
 * manifest): workers never get credentials. `field` names where the argv sits, e.g. `compact.exec`.
 */
export function refuseCredentialArgv(file: string, field: string, argv: readonly string[]): void {
  argv.forEach((arg, i) => {
    const why = credentialReason(arg);
    if (why) {
      throw new UserError(
        `${file}: field ${field}[${i}]: refused: looks like a credential (${why}); workers never get credentials, remove it from argv`,
      );
    }
  });
}
