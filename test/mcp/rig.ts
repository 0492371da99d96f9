// MCP tests: the agent rig with an mcp.json pointing at the reference servers (installed as dev
// dependencies, run offline under this bun) or at fixture servers.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeRig, type Rig, type RigOptions } from "../agent/rig.ts";
import { ROOT } from "../helpers/cli.ts";

export const BUN = process.execPath;
export const EVERYTHING = join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
export const FILESYSTEM = join(ROOT, "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");
export const MEMORY = join(ROOT, "node_modules/@modelcontextprotocol/server-memory/dist/index.js");
export const FIXTURES = join(import.meta.dirname, "fixtures");

export const everything = { command: BUN, args: [EVERYTHING, "stdio"] };

export async function mcpRig(
  servers: Record<string, unknown>,
  opts: RigOptions & { project?: Record<string, unknown> },
): Promise<Rig> {
  const rig = await makeRig(opts);
  writeFileSync(join(rig.configDir, "mcp.json"), JSON.stringify({ mcpServers: servers }));
  if (opts.project)
    writeFileSync(join(rig.workspace, ".mcp.json"), JSON.stringify({ mcpServers: opts.project }));
  return rig;
}

/** The tool messages the model was sent in its last request, by content text. */
export function toolResults(rig: Rig): string[] {
  const last = rig.mock.requests.at(-1) as
    | { body?: { messages?: { role: string; content: unknown }[] } }
    | undefined;
  return (last?.body?.messages ?? [])
    .filter((m) => m.role === "tool")
    .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)));
}
