// The built-in `lsp` module: the project's language servers. After a tool changed files (`files_changed`)
// it syncs them to their servers and answers with the diagnostics the change produced; files only read
// start their server in the background. The `lsp` tool asks the servers for definitions, references,
// hover, symbols and diagnostics. It runs in a process of its own: on end of input every server is shut
// down and, as the leader of its own process group, it takes whatever a server left behind down with it.
import type { HookReply, HookRequest } from "../../src/contract/hooks.ts";
import type { HookOptions } from "../../src/contract/user-hooks.ts";
import { defineWorkerModule, type WorkerContext, type WorkerModule } from "../sdk/module.ts";
import { defineTool } from "../sdk/tool.ts";
import { workerConfigDir } from "../sdk/worker-env.ts";
import { COLD_START_CAP_MS, changed, DIAGNOSTICS_CAP_MS, touch } from "./changes.ts";
import { LspFleet } from "./fleet.ts";
import { Navigator } from "./navigate.ts";

/** The tools whose calls the core tells this module about. */
export const WATCHED_TOOLS = ["write", "edit", "apply_patch", "read"];

/** Beyond the waits themselves: time to read the files and answer. */
const DEADLINE_MARGIN_MS = 2_000;

function killOwnGroup(): void {
  if (process.platform === "win32") return;
  try {
    process.kill(-process.pid, 0);
  } catch {
    return;
  }
  process.kill(-process.pid, "SIGKILL");
}

export function createLspModule(): WorkerModule {
  const configDir = workerConfigDir();
  let fleet: LspFleet | undefined;
  const fleetFor = (workspace: string) => {
    if (!fleet || fleet.workspace !== workspace) fleet = new LspFleet(configDir, workspace);
    return fleet;
  };
  const onChange = async (
    data: HookRequest<"files_changed">,
    ctx: WorkerContext,
  ): Promise<HookReply<"files_changed">> => {
    const f = fleetFor(ctx.workspace);
    if (data.status) return { ...data, servers: f.status() };
    if (data.touched?.length) touch(f, data.touched);
    const report = data.changed.length ? await changed(f, data.changed) : undefined;
    const notices = f.takeNotices();
    return {
      ...data,
      ...(report ? { diagnostics: report } : {}),
      ...(notices.length ? { notices } : {}),
    };
  };
  return defineWorkerModule({
    name: "lsp",
    concurrent: true,
    hooks: { files_changed: onChange },
    hookOptions: (ctx): Partial<Record<"files_changed", HookOptions>> => {
      const f = fleetFor(ctx.workspace);
      const extensions = f.extensions();
      return {
        files_changed: {
          deadline_ms: COLD_START_CAP_MS + DIAGNOSTICS_CAP_MS + DEADLINE_MARGIN_MS,
          tools: WATCHED_TOOLS,
          // No server can run here: the core sends nothing, and a session pays nothing for the module.
          // Else only the files some server takes come (a README edit costs no round trip).
          ...(f.anyAvailable() ? (extensions ? { extensions } : {}) : { idle: true }),
        },
      };
    },
    tools: [defineTool("lsp", "lsp", (args, ctx) => new Navigator(fleetFor(ctx.workspace)).run(args))],
    close: async () => {
      await fleet?.close();
      killOwnGroup();
    },
  });
}
