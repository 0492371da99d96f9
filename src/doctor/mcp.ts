// `i doctor`, MCP part: one row per configured server — started, handshake, tools, one round trip (a
// ping) — as the mcp module reports them after starting them the way a run does. A server that fails is a
// failed check (exit 1): the session would go on without it, so it is no config error.
import { configuredServers, describeStatus, type McpServerRow } from "../agent/mcp-servers.ts";
import { UserError } from "../contract/errors.ts";
import { sanitizeLine } from "../terminal/sanitize.ts";
import { TOOLS_WAIT_MS, type WorkerHost } from "../worker/host.ts";
import { count, type Line, Table } from "./report.ts";

const ms = (v: number | undefined) =>
  v === undefined ? "-" : v < 10 ? `${v.toFixed(2)} ms` : `${v.toFixed(0)} ms`;

export async function mcpRows(
  host: WorkerHost,
  configDir: string,
  workspace: string,
): Promise<{ lines: Line[]; failed: number }> {
  let rows: McpServerRow[];
  try {
    rows = configuredServers(configDir, workspace);
  } catch (err) {
    // A bad mcp.json is already a row of its own above (the module's config file).
    if (err instanceof UserError) return { lines: [], failed: 0 };
    throw err;
  }
  if (rows.length === 0) return { lines: ["mcp: no servers configured (mcp.json, .mcp.json)"], failed: 0 };
  const refresh = await host.refreshTools(TOOLS_WAIT_MS).catch(() => undefined);
  const status = refresh?.status.mcp ?? {};
  const table = [["SERVER", "SCOPE", "STATUS", "START", "ROUND TRIP", "TOOLS"]];
  const causes: string[] = [];
  let failed = 0;
  for (const r of rows) {
    const s = status[r.name];
    const state = r.disabled
      ? "disabled"
      : r.untrusted
        ? "not accepted"
        : r.shadowed
          ? "replaced"
          : s?.state === "ready"
            ? "ok"
            : "FAILED";
    if (state === "FAILED") {
      failed++;
      causes.push(`${r.name}: ${describeStatus(s)}`);
    }
    if (r.untrusted) causes.push(`${r.name}: ${r.file} is not accepted for this workspace: \`i mcp trust\``);
    table.push([r.name, r.scope, state, ms(s?.start_ms), ms(s?.round_trip_ms), s ? String(s.tools) : "-"]);
  }
  const total = rows.length;
  return {
    lines: [
      `mcp servers: ${count(total, "server")}`,
      new Table(table.map((row) => row.map((cell) => sanitizeLine(cell)))),
      ...causes.map((c) => sanitizeLine(c)),
      failed ? `${failed} of ${count(total, "server")} FAILED` : `all servers ok`,
    ],
    failed,
  };
}
