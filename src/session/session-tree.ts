// Sessions with their sub-agent tasks: a child task's session (meta.parent) is listed right under its
// parent's, in the list's own order; one whose parent is not in the list stays where it is.
import type { SessionMeta } from "../contract/session.ts";

export interface ListedSession {
  meta: SessionMeta;
  /** 0 for a session of its own, 1 for a task's under its parent, … */
  depth: number;
}

export function nestChildren(list: readonly SessionMeta[]): ListedSession[] {
  const ids = new Set(list.map((m) => m.id));
  const children = new Map<string, SessionMeta[]>();
  for (const m of list) {
    const p = m.parent?.session_id;
    if (p && ids.has(p) && p !== m.id) children.set(p, [...(children.get(p) ?? []), m]);
  }
  const out: ListedSession[] = [];
  const seen = new Set<string>();
  const add = (m: SessionMeta, depth: number) => {
    if (seen.has(m.id)) return;
    seen.add(m.id);
    out.push({ meta: m, depth });
    for (const c of children.get(m.id) ?? []) add(c, depth + 1);
  };
  for (const m of list) {
    const p = m.parent?.session_id;
    if (!p || !ids.has(p) || p === m.id) add(m, 0);
  }
  // A cycle of parents (a hand-edited meta.json) is still listed, flat.
  for (const m of list) add(m, 0);
  return out;
}
