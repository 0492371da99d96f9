// The MCP servers a client offers in session/new (or load, resume) as entries of our mcp.json format. The
// user configured them in the editor, so they run as trusted servers, like config_dir/mcp.json's.
import type { McpServer as AcpMcpServer } from "@agentclientprotocol/sdk";
import type { McpServer } from "../contract/mcp.ts";

/** A name our tool names can carry: `mcp__<server>__<tool>`. */
export function serverName(name: string, taken: ReadonlySet<string>): string {
  const base = name.replace(/[^a-zA-Z0-9_.-]/g, "_").slice(0, 44) || "server";
  let out = base;
  for (let i = 2; taken.has(out); i++) out = `${base}-${i}`;
  return out;
}

export function clientMcpServers(list: readonly AcpMcpServer[] | undefined): Record<string, McpServer> {
  const out: Record<string, McpServer> = {};
  for (const s of list ?? []) {
    const name = serverName(s.name, new Set(Object.keys(out)));
    if ("type" in s && (s.type === "http" || s.type === "sse"))
      out[name] = {
        type: s.type,
        url: s.url,
        ...(s.headers.length > 0
          ? { headers: Object.fromEntries(s.headers.map((h) => [h.name, h.value])) }
          : {}),
      };
    else if ("command" in s)
      out[name] = {
        command: s.command,
        ...(s.args.length > 0 ? { args: s.args } : {}),
        ...(s.env.length > 0 ? { env: Object.fromEntries(s.env.map((e) => [e.name, e.value])) } : {}),
      };
  }
  return out;
}
