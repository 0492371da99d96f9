// A prompt template's front matter: a leading block between two `---` lines of `key: value` pairs
// (description, argument-hint, model — as other agents' command files write them). It describes the
// template and is never part of the message.

export interface FrontMatter {
  /** the keys found (lower-cased), their values unquoted */
  fields: Record<string, string>;
  /** the text after the block (all of it when there is none) */
  body: string;
}

const BLOCK = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

function unquote(v: string): string {
  const t = v.trim();
  if (t.length >= 2 && (t[0] === '"' || t[0] === "'") && t.at(-1) === t[0]) return t.slice(1, -1);
  return t;
}

/** Split `text` into its front matter and body; text without a block is all body. */
export function parseFrontMatter(text: string): FrontMatter {
  const m = BLOCK.exec(text);
  if (!m) return { fields: {}, body: text };
  const fields: Record<string, string> = {};
  for (const line of (m[1] as string).split(/\r?\n/)) {
    const kv = /^\s*([A-Za-z][\w-]*)\s*:\s*(.*)$/.exec(line);
    if (kv) fields[(kv[1] as string).toLowerCase()] = unquote(kv[2] as string);
  }
  return { fields, body: text.slice(m[0].length) };
}
