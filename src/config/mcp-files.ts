// Editing mcp.json for `i mcp add` and `i mcp remove`: the file's other entries and keys are kept as they
// are, a file that does not parse is never overwritten (the user's to fix), and the write is atomic and
// private (an entry may carry a token in its headers or env).
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { UserError } from "../contract/errors.ts";
import type { McpServer } from "../contract/mcp.ts";
import { writeFileAtomic } from "../lib/atomic-write.ts";
import { readConfigJson } from "../lib/json-file.ts";
import { type McpScope, parseMcpFile } from "../lib/mcp-config.ts";

type Raw = Record<string, unknown> & { mcpServers?: Record<string, unknown> };

function load(file: string, scope: McpScope): Raw {
  const raw = (readConfigJson(file) ?? {}) as Raw;
  parseMcpFile(file, scope, raw);
  return raw;
}

function save(file: string, raw: Raw): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileAtomic(file, `${JSON.stringify(raw, null, 2)}\n`, 0o600);
}

export function addServer(file: string, scope: McpScope, name: string, server: McpServer): void {
  const raw = load(file, scope);
  const servers = { ...(raw.mcpServers ?? {}) };
  if (Object.hasOwn(servers, name))
    throw new UserError(`${file}: a server "${name}" is already configured; \`i mcp remove ${name}\` first`);
  servers[name] = server;
  const next = { ...raw, mcpServers: servers };
  // The new entry is checked as a run will check it: a mistake is refused here, not at the next start.
  parseMcpFile(file, scope, next);
  save(file, next);
}

/** False when `file` has no server `name`. */
export function removeServer(file: string, scope: McpScope, name: string): boolean {
  const raw = load(file, scope);
  if (!raw.mcpServers || !Object.hasOwn(raw.mcpServers, name)) return false;
  const servers = { ...raw.mcpServers };
  delete servers[name];
  save(file, { ...raw, mcpServers: servers });
  return true;
}
