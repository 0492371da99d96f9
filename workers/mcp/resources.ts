// A server's resources: listed (for the `@` menu, again after notifications/resources/list_changed) and
// read for an `@SERVER:URI` mention. Text comes back as text, bounded; binary contents are only
// measured, never sent: the core names them in a note instead of attaching them.
import type { ResourceContent, RuntimeResourceDecl } from "../../src/contract/runtime-resources.ts";
import type { McpClient } from "./connect.ts";
import { MAX_RESULT_TEXT } from "./results.ts";

/** Resources a server may list; a server with thousands offers the first ones in the menu. */
const MAX_LISTED = 500;

export async function listResources(
  client: McpClient,
  server: string,
  timeoutMs: number,
): Promise<RuntimeResourceDecl[]> {
  if (!client.getServerCapabilities()?.resources) return [];
  const out: RuntimeResourceDecl[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 50 && out.length < MAX_LISTED; page++) {
    const res = await client.listResources(cursor ? { cursor } : {}, { timeout: timeoutMs });
    for (const r of res.resources.slice(0, MAX_LISTED - out.length))
      out.push({
        server,
        uri: r.uri,
        name: (r.title ?? r.name).slice(0, 200),
        ...(r.description ? { description: r.description.slice(0, 300) } : {}),
        ...(r.mimeType ? { mime_type: r.mimeType } : {}),
      });
    cursor = res.nextCursor;
    if (!cursor) break;
  }
  return out;
}

export async function readResource(
  client: McpClient,
  uri: string,
  timeoutMs: number,
): Promise<ResourceContent[]> {
  const res = await client.readResource({ uri }, { timeout: timeoutMs });
  let room = MAX_RESULT_TEXT;
  return res.contents.map((c) => {
    const head = { uri: c.uri, ...(c.mimeType ? { mime_type: c.mimeType } : {}) };
    if ("text" in c && typeof c.text === "string") {
      const text = c.text.slice(0, Math.max(0, room));
      room -= text.length;
      return { ...head, text, ...(text.length < c.text.length ? { cut: true } : {}) };
    }
    const blob = "blob" in c && typeof c.blob === "string" ? c.blob : "";
    return { ...head, binary_bytes: Math.floor((blob.replace(/=+$/, "").length * 3) / 4) };
  });
}
