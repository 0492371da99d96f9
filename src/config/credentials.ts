// Credentials never belong in argv or JSON settings (seed 000). These shapes catch the common ones.

const KEY_SHAPES: RegExp[] = [
  /\bsk-[A-Za-z0-9_-]{16,}/, // OpenAI / Anthropic style (sk-…, sk-ant-…, sk-proj-…)
  /\bgh[pousr]_[A-Za-z0-9]{20,}/, // GitHub tokens
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/, // Slack tokens
  /\bAKIA[0-9A-Z]{16}\b/, // AWS access key id
  /\bAIza[0-9A-Za-z_-]{30,}/, // Google API key
  /^Bearer\s+\S+/i,
];

const SECRET_FLAG = /^--?(api[-_]?key|token|secret|password|passwd|auth|access[-_]?key|bearer)(=.*)?$/i;

/** Why an argv element looks like a credential, or undefined when it does not. */
export function credentialReason(arg: string): string | undefined {
  if (SECRET_FLAG.test(arg)) return "a flag that passes a secret";
  for (const re of KEY_SHAPES) if (re.test(arg)) return "an API-key-shaped token";
  return undefined;
}
