// The hooks module: the user's own commands (hooks.json) on agent events. Each event's matching hooks run at
// once, in parallel as Claude Code runs them; the reply carries the first block (in file order), the text
// they add to the model's context, and a warning per hook that failed. The config is read at hello and
// kept for the life of the process, so the core is told then which events and tools have hooks at all.
import type { HookReply } from "../../src/contract/hooks.ts";
import type { UserHookContractEvent } from "../../src/contract/hooks-file.ts";
import { type HookEvent, USER_HOOK_CONTRACT_EVENTS } from "../../src/contract/protocol.ts";
import type { HookNote, HookOptions } from "../../src/contract/user-hooks.ts";
import { type ConfiguredHook, type HooksByEvent, loadHooks } from "../../src/lib/hooks-config.ts";
import { defineWorkerModule, type HookHandlers, type WorkerContext } from "../sdk/module.ts";
import { workerConfigDir } from "../sdk/worker-env.ts";
import { outcomeOf } from "./outcome.ts";
import { runHookCommand } from "./run-command.ts";

/** Beyond the longest hook's timeout: time to start the shell, kill the group and answer. */
export const DEADLINE_MARGIN_MS = 5_000;

/** The environment a hook command runs with: the worker's (an allow-list without credentials). */
function hookEnv(workspace: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !k.startsWith("BUN_JSC_")) env[k] = v;
  // Claude Code's name too, so its users' hook scripts find the project as they are.
  env.I_PROJECT_DIR = workspace;
  env.CLAUDE_PROJECT_DIR = workspace;
  return env;
}

/** The JSON a hook reads on stdin, with Claude Code's field names. */
function hookInput(hook: ConfiguredHook, data: Record<string, unknown>, workspace: string): string {
  const { call_id: _call, block: _b, context: _c, warnings: _w, ...fields } = data;
  return JSON.stringify({ ...fields, cwd: workspace, hook_event_name: hook.event });
}

function label(hook: ConfiguredHook): string {
  return `${hook.event}${hook.matcherText ? ` [${hook.matcherText}]` : ""} ${hook.command}`;
}

async function runAll(hooks: ConfiguredHook[], data: Record<string, unknown>, workspace: string) {
  const env = hookEnv(workspace);
  const runs = await Promise.all(
    hooks.map(async (hook) => {
      const input = hookInput(hook, data, workspace);
      const run = await runHookCommand(hook.command, {
        cwd: workspace,
        env,
        input,
        timeoutMs: hook.timeoutMs,
      });
      return { hook, outcome: outcomeOf(run, hook.timeoutMs) };
    }),
  );
  let block: HookNote | undefined;
  const context: string[] = [];
  const warnings: HookNote[] = [];
  for (const { hook, outcome } of runs) {
    if (outcome.kind === "block") block ??= { hook: label(hook), message: outcome.reason };
    else if (outcome.kind === "warning") warnings.push({ hook: label(hook), message: outcome.message });
    else if (outcome.context) context.push(outcome.context);
  }
  return { block, context, warnings };
}

export function createHooksModule() {
  let loaded: HooksByEvent | undefined;
  const load = (ctx: WorkerContext): HooksByEvent => {
    if (!loaded) {
      const r = loadHooks(workerConfigDir(), ctx.workspace);
      if (r.projectIgnored)
        ctx.log(`${r.projectIgnored}: not accepted for this workspace; its hooks do not run`);
      loaded = r.hooks;
    }
    return loaded;
  };

  const handler =
    (event: UserHookContractEvent) =>
    async (data: Record<string, unknown>, ctx: WorkerContext): Promise<Record<string, unknown>> => {
      const all = load(ctx)[event] ?? [];
      const tool = typeof data.tool_name === "string" ? data.tool_name : undefined;
      const hooks = all.filter((h) => !h.matcher || tool === undefined || h.matcher.test(tool));
      if (hooks.length === 0) return data;
      const r = await runAll(hooks, data, ctx.workspace);
      const prior = data as Partial<HookReply<"pre_tool_use">>;
      const out: Record<string, unknown> = { ...data };
      // An earlier module's block stands: the first block in the pipeline is the one the user sees.
      const block = prior.block ?? r.block;
      if (block) out.block = block;
      const context = [...(prior.context ?? []), ...r.context];
      if (context.length > 0) out.context = context;
      const warnings = [...(prior.warnings ?? []), ...r.warnings];
      if (warnings.length > 0) out.warnings = warnings;
      return out;
    };

  const hooks: HookHandlers = {};
  for (const e of USER_HOOK_CONTRACT_EVENTS) (hooks as Record<string, unknown>)[e] = handler(e);

  return defineWorkerModule({
    name: "hooks",
    hooks,
    check: (ctx) => {
      load(ctx);
    },
    hookOptions: (ctx) => {
      const byEvent = load(ctx);
      const options: Partial<Record<HookEvent, HookOptions>> = {};
      for (const e of USER_HOOK_CONTRACT_EVENTS) {
        const list = byEvent[e] ?? [];
        if (list.length === 0) {
          options[e] = { idle: true };
          continue;
        }
        const longest = Math.max(...list.map((h) => h.timeoutMs));
        const o: HookOptions = { deadline_ms: longest + DEADLINE_MARGIN_MS };
        if ((e === "pre_tool_use" || e === "post_tool_use") && list.every((h) => h.matcher))
          o.tools = list.map((h) => h.matcherText);
        options[e] = o;
      }
      return options;
    },
  });
}
