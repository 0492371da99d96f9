// SKILL.md may open with a small front matter block naming the skill and describing it in one line:
//   ---
//   name: deploy
//   description: How to deploy the service
//   ---
// Only `name` and `description` mean something here; other keys (written for other tools) are ignored.

export interface SkillHeader {
  name?: string;
  description?: string;
  /** the text after the front matter (the whole file when there is none) */
  body: string;
}

function unquote(v: string): string {
  const t = v.trim();
  if (t.length >= 2 && ((t.startsWith('"') && t.endsWith('"')) || (t.startsWith("'") && t.endsWith("'")))) {
    return t.slice(1, -1);
  }
  return t;
}

export function parseSkillFile(text: string): SkillHeader {
  const src = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const lines = src.split(/\r?\n/);
  if (lines[0]?.trim() !== "---") return { body: src };
  const end = lines.findIndex((l, i) => i > 0 && l.trim() === "---");
  if (end < 0) return { body: src };
  const header: SkillHeader = { body: lines.slice(end + 1).join("\n") };
  for (const line of lines.slice(1, end)) {
    const m = /^([A-Za-z_][\w-]*)\s*:\s*(.*)$/.exec(line);
    if (!m) continue;
    const value = unquote(m[2] ?? "");
    if (value === "") continue;
    if (m[1] === "name") header.name = value;
    else if (m[1] === "description") header.description = value;
  }
  return header;
}

/** A description for the listing when the front matter gives none: the first line of prose. */
export function firstProseLine(body: string): string | undefined {
  for (const raw of body.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || line.startsWith("```")) continue;
    return line;
  }
  return undefined;
}
