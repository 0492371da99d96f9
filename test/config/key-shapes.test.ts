// The one list of key shapes serves both the argv refusal and the error-body redaction.
import { describe, expect, test } from "bun:test";
import { credentialReason } from "../../src/config/credentials.ts";
import { hasKeyShape, redactKeyShapes } from "../../src/config/key-shapes.ts";
import { redact } from "../../src/provider/errors.ts";

const KEYS = [
  "sk-proj-abcdefghijklmnop",
  "sk_live0123456789abcdef",
  "ghp_abcdefghijklmnopqrstuvwxyz",
  "xoxb-1234567890-abc",
  "AKIAABCDEFGHIJKLMNOP",
  "AIzaSyA0123456789abcdefghijklmnopqrstu",
  "Bearer abc.def",
];

describe("key shapes", () => {
  test("every shape is refused in argv and scrubbed from error text", () => {
    for (const key of KEYS) {
      expect(hasKeyShape(key)).toBe(true);
      expect(credentialReason(key)).toBe("an API-key-shaped token");
      expect(redact(`upstream said: ${key} is invalid`)).toBe("upstream said: [redacted] is invalid");
    }
  });

  test("ordinary argv and text pass untouched, also on repeated calls", () => {
    for (const text of ["--queue", "/usr/bin/task-runner", "desk-lamp", "skill", "AKIA"]) {
      expect(hasKeyShape(text)).toBe(false);
      expect(hasKeyShape(text)).toBe(false);
      expect(redactKeyShapes(text)).toBe(text);
    }
  });
});
