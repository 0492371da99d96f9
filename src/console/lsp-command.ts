// `/lsp` lists the language servers: each definition (found on PATH or not) and each running server with
// its project root, state, open files and restarts.
import type { LspView } from "../agent/agent-session.ts";
import { padEnd, visibleWidth } from "../terminal/width.ts";
import type { ConsoleUi } from "./ports.ts";

export interface LspTarget {
  lspServers(): Promise<LspView>;
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

export async function lspCommand(target: LspTarget, ui: ConsoleUi): Promise<void> {
  const view = await target.lspServers();
  if (view.why) {
    ui.print(ui.dim(ui.clean(view.why)));
    return;
  }
  const rows = [["SERVER", "STATE", "ROOT", "FILES", "RESTARTS", "COMMAND"]];
  for (const s of view.servers)
    rows.push(
      [
        s.name,
        s.state,
        s.root ?? "-",
        s.open_files === undefined ? "-" : String(s.open_files),
        s.crashes === undefined ? "-" : String(s.crashes),
        s.command ?? "-",
      ].map((c) => ui.clean(c)),
    );
  ui.print(...table(rows).map((l) => ui.dim(l)));
}
