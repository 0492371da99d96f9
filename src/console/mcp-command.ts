// `/mcp` shows the configured MCP servers (scope, status, tools, transport) the way `i mcp list` does;
// `/mcp trust` shows this workspace's .mcp.json servers and accepts the file, so they start before the
// next model request.
import type { McpView } from "../agent/agent-session.ts";
import { padEnd, visibleWidth } from "../terminal/width.ts";
import type { ConsoleUi } from "./ports.ts";

export interface McpTarget {
  mcpServers(): Promise<McpView>;
  trustProjectMcp(): { file: string; accepted: boolean; servers: string[] };
}

function table(rows: string[][]): string[] {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => visibleWidth(r[i] ?? "")))) ?? [];
  return rows.map((r) =>
    r
      .map((c, i) => (i === r.length - 1 ? c : padEnd(c, widths[i] ?? 0)))
      .join("  ")
      .trimEnd(),
  );
}

/** The text of an MCP prompt, or undefined after saying why there is none. */
export async function mcpPromptText(
  name: string,
  args: string,
  target: { expandMcpPrompt(name: string, args: string): Promise<string> },
  ui: ConsoleUi,
): Promise<string | undefined> {
  try {
    const text = await target.expandMcpPrompt(name, args);
    if (text.trim() !== "") return text;
    ui.print(ui.yellow(`/${ui.clean(name)} gave an empty prompt; nothing was sent`));
  } catch (err) {
    ui.print(ui.yellow(ui.clean(err instanceof Error ? err.message : String(err))));
  }
  return undefined;
}

export async function mcpCommand(args: string, target: McpTarget, ui: ConsoleUi): Promise<void> {
  if (args === "trust") {
    const t = target.trustProjectMcp();
    if (!t.accepted) {
      ui.print(ui.yellow("this workspace has no .mcp.json to accept"));
      return;
    }
    ui.print(ui.dim(`${ui.clean(t.file)} starts:`), ...t.servers.map((s) => ui.dim(`  ${ui.clean(s)}`)));
    ui.print(ui.dim("accepted for this workspace: its servers start before the next request"));
    return;
  }
  if (args !== "") {
    ui.print(ui.yellow(`/mcp takes nothing or "trust", not "${ui.clean(args)}"`));
    return;
  }
  const view = await target.mcpServers();
  if (view.problem) {
    ui.print(ui.red(ui.clean(view.problem)));
    return;
  }
  if (view.rows.length === 0) {
    ui.print(
      ui.dim("no MCP servers: add one with `i mcp add NAME -- COMMAND ARGS` or in config_dir/mcp.json"),
    );
    return;
  }
  const rows = [["SERVER", "SCOPE", "STATUS", "TRANSPORT"]];
  for (const r of view.rows) rows.push([r.name, r.scope, r.status, r.transport].map((c) => ui.clean(c)));
  ui.print(...table(rows).map((l) => ui.dim(l)));
  if (view.untrusted)
    ui.print(
      ui.yellow(`${ui.clean(view.untrusted)} is not accepted for this workspace: review it, then /mcp trust`),
    );
}
