// The session picker's rows and preview (`/resume` and `i -r` without an id): title, age, size and id for
// each session, and under the list the marked one's first request and last exchange. Titles, requests and
// replies are untrusted (the model wrote some of them): the picker cleans every line it draws.
import { type ListedMeta, type SessionPreview, savedSessionPreview } from "../agent/agent-session.ts";
import type { PickRequest, PickRow } from "./input/picker.ts";

export function age(iso: string, now = Date.now()): string {
  const s = Math.max(0, (now - Date.parse(iso)) / 1000);
  if (s < 90) return `${Math.round(s)}s ago`;
  if (s < 5400) return `${Math.round(s / 60)}m ago`;
  if (s < 129600) return `${Math.round(s / 3600)}h ago`;
  return `${Math.round(s / 86400)}d ago`;
}

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

const oneLine = (s: string) => s.replace(/\s+/g, " ").trim();

/** A row per session: its title (marked when it is `current`), then age, messages, size, workspace, id. */
export function savedRows(list: readonly ListedMeta[], current: string, workspaces: boolean): PickRow[] {
  return list.map((m) => ({
    label: `${m.title ?? "(untitled)"}${m.id === current ? " (this one)" : ""}`,
    detail: [
      age(m.updated),
      `${m.messages} messages`,
      size(m.bytes),
      ...(workspaces ? [m.workspace] : []),
      m.id,
    ].join(" · "),
  }));
}

/** The preview lines of one session: its first request, then the last request and the reply to it. */
export function previewLines(p: SessionPreview): string[] {
  const out: string[] = [];
  if (p.first !== undefined) out.push(`first: ${oneLine(p.first)}`);
  if (p.lastRequest !== undefined && p.lastRequest !== p.first) out.push(`last: › ${oneLine(p.lastRequest)}`);
  if (p.lastReply !== undefined) {
    const reply = p.lastReply
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l !== "");
    out.push(...reply.slice(0, 2).map((l, i) => `${i === 0 ? "reply: " : "       "}${l}`));
  }
  return out;
}

/** The picker request for `list`, with a preview read once per session as rows are marked. */
export function sessionPickRequest(
  list: readonly ListedMeta[],
  opts: { current?: string; title: string; all?: boolean; initial?: number },
): PickRequest {
  const cache = new Map<string, string[]>();
  return {
    title: opts.title,
    action: "resume",
    rows: savedRows(list, opts.current ?? "", opts.all ?? false),
    ...(opts.initial !== undefined ? { initial: opts.initial } : {}),
    preview: (i) => {
      const id = list[i]?.id;
      if (id === undefined) return [];
      let lines = cache.get(id);
      if (!lines) {
        lines = previewLines(savedSessionPreview(id));
        cache.set(id, lines);
      }
      return lines;
    },
  };
}
