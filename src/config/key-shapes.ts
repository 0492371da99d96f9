// The one list of credential shapes. The same list both refuses an argv element that carries a key (argv
// is visible to every process) and scrubs keys out of error bodies a server or proxy echoes back, so a
// shape added for one purpose protects the other too.

const SHAPES = [
  String.raw`\bsk-[A-Za-z0-9_*.-]{8,}`, // OpenAI / Anthropic style (sk-…, sk-ant-…, sk-proj-…), masked ones too
  String.raw`\bsk_[A-Za-z0-9]{16,}`, // sk_live_… style secret keys
  String.raw`\bgh[pousr]_[A-Za-z0-9]{20,}`, // GitHub tokens
  String.raw`\bxox[abposr]-[A-Za-z0-9-]{10,}`, // Slack tokens
  String.raw`\bAKIA[0-9A-Z]{16}\b`, // AWS access key id
  String.raw`\bAIza[0-9A-Za-z_-]{30,}`, // Google API key
  String.raw`\b[Bb]earer\s+\S+`, // an Authorization header value
];

const ANY = SHAPES.join("|");
// Separate objects: a /g regex carries lastIndex between calls, which would make .test() alternate.
const FIND = new RegExp(ANY);
const ALL = new RegExp(ANY, "g");

/** True when `text` contains something shaped like an API key or token. */
export function hasKeyShape(text: string): boolean {
  return FIND.test(text);
}

/** `text` with every key-shaped run replaced by `[redacted]`. */
export function redactKeyShapes(text: string): string {
  return text.replace(ALL, "[redacted]");
}
