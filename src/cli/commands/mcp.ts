// `i mcp list|get|add|remove|trust`: the MCP servers of config_dir/mcp.json (user scope) and the
// workspace's .mcp.json (project scope). `list` and `get` start the servers as a run would (through the
// mcp module) and say where each stands; `trust` shows the project's servers and accepts the file.

import {
  configuredServers,
  describeStatus,
  type McpServerRow,
  probeServers,
} from "../../agent/mcp-servers.ts";
import { resolveWorkspace } from "../../agent/options.ts";
import { addServer, removeServer } from "../../config/mcp-files.ts";
import { configDir } from "../../config/paths.ts";
import { acceptProjectFiles, projectTrust, revokeProjectFiles } from "../../config/project-trust.ts";
import { UserError } from "../../contract/errors.ts";
import { MCP_PROJECT_FILE } from "../../contract/mcp.ts";
import { projectMcpFile, userMcpFile } from "../../lib/mcp-config.ts";
import { serverSettingLines } from "../../lib/mcp-describe.ts";
import { sanitizeLine } from "../../terminal/sanitize.ts";
import { padEnd } from "../../terminal/width.ts";
import { definePassThrough } from "../command.ts";
import { parseAdd, parseScope } from "../mcp-args.ts";

const HELP = `i mcp: the MCP servers of config_dir/mcp.json (user) and <workspace>/.mcp.json (project)

  i mcp list                         each server: scope, transport, status, tools
  i mcp get NAME                     one server's entry and status
  i mcp add NAME [--scope user|project] [--env K=V]… -- COMMAND [ARGS…]
  i mcp add --transport http|sse NAME URL [--header "K: V"]…
  i mcp remove NAME [--scope user|project]
  i mcp trust [--revoke]             accept (or forget) this workspace's .mcp.json

  --workspace DIR                    the workspace (default: cwd)
`;

function takeWorkspace(words: string[]): { workspace: string; rest: string[] } {
  const rest: string[] = [];
  let dir: string | undefined;
  for (let i = 0; i < words.length; i++) {
    if (words[i] === "--") {
      rest.push(...words.slice(i));
      break;
    }
    if (words[i] === "--workspace") {
      dir = words[++i];
      if (dir === undefined) throw new UserError("i mcp: --workspace needs a directory");
    } else rest.push(words[i] as string);
  }
  return { workspace: resolveWorkspace(dir), rest };
}

const clean = sanitizeLine;

function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length))) ?? [];
  return `${rows
    .map((r) =>
      r
        .map((c, i) => (i === r.length - 1 ? c : padEnd(c, widths[i] ?? 0)))
        .join("  ")
        .trimEnd(),
    )
    .join("\n")}\n`;
}

function statusOf(row: McpServerRow, status: Record<string, { state: string }> | undefined): string {
  if (row.disabled) return "disabled";
  if (row.untrusted) return "not accepted: run `i mcp trust`";
  if (row.shadowed) return "replaced by the project's entry";
  return describeStatus(status?.[row.name] as Parameters<typeof describeStatus>[0]);
}

async function list(workspace: string, only?: string): Promise<number> {
  const dir = configDir();
  const rows = configuredServers(dir, workspace).filter((r) => only === undefined || r.name === only);
  if (only !== undefined && rows.length === 0)
    throw new UserError(
      `i mcp: get: no server "${only}" in ${userMcpFile(dir)} or ${projectMcpFile(workspace)}`,
      1,
    );
  if (rows.length === 0) {
    process.stdout.write(
      `no MCP servers: add one with \`i mcp add NAME -- COMMAND ARGS\` (written to ${clean(userMcpFile(dir))})\n`,
    );
    return 0;
  }
  const probe = await probeServers(dir, workspace);
  let failed = 0;
  const lines = [["NAME", "SCOPE", "STATUS", "TRANSPORT"]];
  for (const r of rows) {
    const s = statusOf(r, probe.status);
    if (probe.status[r.name]?.state === "failed") failed++;
    lines.push([clean(r.name), r.scope, clean(s), clean(r.transport)]);
  }
  process.stdout.write(table(lines));
  if (only !== undefined) {
    const r = rows[0] as McpServerRow;
    process.stdout.write(
      `\nfrom ${clean(r.file)}:\n${clean(JSON.stringify(r.entry.config, null, 2)).replaceAll("\\n", "\n")}\n`,
    );
  }
  return failed > 0 ? 1 : 0;
}

function trust(workspace: string, revoke: boolean): number {
  const dir = configDir();
  if (revoke) {
    revokeProjectFiles(dir, workspace, [MCP_PROJECT_FILE]);
    process.stdout.write(`forgot the acceptance of ${clean(projectMcpFile(workspace))}\n`);
    return 0;
  }
  const [state] = projectTrust(dir, workspace, [MCP_PROJECT_FILE]);
  if (!state || state.state === "absent")
    throw new UserError(`i mcp: trust: ${projectMcpFile(workspace)} does not exist`, 1);
  const rows = configuredServers(dir, workspace).filter((r) => r.scope === "project");
  process.stdout.write(`${clean(state.path)} starts these servers:\n`);
  for (const r of rows) {
    process.stdout.write(`  ${clean(r.name)}  ${clean(r.transport)}\n`);
    for (const l of serverSettingLines(r.entry.config)) process.stdout.write(`${clean(l)}\n`);
  }
  if (state.state === "trusted") {
    process.stdout.write("already accepted for this workspace\n");
    return 0;
  }
  acceptProjectFiles(dir, workspace, [state]);
  process.stdout.write("accepted for this workspace (asked again if the file changes)\n");
  return 0;
}

function scopeFlag(words: string[]): { scope: "user" | "project" | undefined; rest: string[] } {
  const i = words.indexOf("--scope");
  if (i < 0) return { scope: undefined, rest: words };
  return {
    scope: parseScope(words[i + 1], "i mcp: remove"),
    rest: [...words.slice(0, i), ...words.slice(i + 2)],
  };
}

export const command = definePassThrough(
  { name: "i mcp", description: "List, add, remove and accept MCP servers (mcp.json, .mcp.json)" },
  async (raw) => {
    const [sub, ...words] = raw;
    if (sub === undefined || sub === "--help" || sub === "-h" || sub === "help") {
      process.stdout.write(HELP);
      return sub === undefined ? 2 : 0;
    }
    const { workspace, rest } = takeWorkspace(words);
    const dir = configDir();
    switch (sub) {
      case "list":
        if (rest.length) throw new UserError(`i mcp: list: unexpected "${rest[0]}"`);
        return list(workspace);
      case "get":
        if (rest.length !== 1) throw new UserError("i mcp: get: give one server NAME");
        return list(workspace, rest[0]);
      case "add": {
        const a = parseAdd(rest);
        const file = a.scope === "user" ? userMcpFile(dir) : projectMcpFile(workspace);
        addServer(file, a.scope, a.name, a.server);
        process.stdout.write(`added server "${clean(a.name)}" to ${clean(file)}\n`);
        if (a.scope === "project")
          process.stdout.write(
            "the project's file changed: accept it with `i mcp trust` (or in the console)\n",
          );
        return 0;
      }
      case "remove": {
        const { scope, rest: names } = scopeFlag(rest);
        if (names.length !== 1) throw new UserError("i mcp: remove: give one server NAME");
        const name = names[0] as string;
        const scopes = scope ? [scope] : (["project", "user"] as const);
        for (const s of scopes) {
          const file = s === "user" ? userMcpFile(dir) : projectMcpFile(workspace);
          if (removeServer(file, s, name)) {
            process.stdout.write(`removed server "${clean(name)}" from ${clean(file)}\n`);
            return 0;
          }
        }
        throw new UserError(`i mcp: remove: no server "${name}" in ${scopes.join(" or ")} scope`, 1);
      }
      case "trust":
        if (rest.some((w) => w !== "--revoke")) throw new UserError(`i mcp: trust: unexpected "${rest[0]}"`);
        return trust(workspace, rest.includes("--revoke"));
      default:
        throw new UserError(
          `i mcp: no subcommand "${sub}"; use list, get, add, remove or trust (\`i mcp --help\`)`,
        );
    }
  },
);
