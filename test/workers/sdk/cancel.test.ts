// One cancel mechanism in the SDK: `tool_cancel` (a registry tool) and `cancel` (a tool declared at run
// time) both abort the call's signal, and a run-time tools module is told through its `cancel` too. And
// one concurrency switch: a module's `concurrent` flag, which every built-in module that runs in a
// process of its own (the registry's ownProcess) sets.
import { expect, test } from "bun:test";
import { PassThrough } from "node:stream";
import { MODULE_NAMES, MODULES } from "../../../src/contract/registry.ts";
import { BUILTIN_WORKERS } from "../../../workers/registry.ts";
import { defineWorkerModule, toolText, type WorkerModule } from "../../../workers/sdk/module.ts";
import { serve } from "../../../workers/sdk/serve.ts";
import { req } from "./requests.ts";

/** Serve over in-memory streams; the cancel goes in once the call has started. */
async function callThenCancel(module: WorkerModule, call: unknown, cancel: unknown, started: Promise<void>) {
  const input = new PassThrough();
  const out: Record<string, unknown>[] = [];
  const done = serve([module], { input, write: (l) => out.push(JSON.parse(l)), log: () => {} });
  input.write(`${JSON.stringify(call)}\n`);
  await started;
  input.write(`${JSON.stringify(cancel)}\n`);
  for (let i = 0; i < 200 && out.length < 2; i++) await Bun.sleep(5);
  input.end();
  await done;
  return out.sort((a, b) => Number(a.id) - Number(b.id));
}

function waiting() {
  let mark!: () => void;
  const started = new Promise<void>((r) => {
    mark = r;
  });
  const told: string[] = [];
  const untilAborted = (signal: AbortSignal | undefined) =>
    new Promise<ReturnType<typeof toolText>>((resolve) => {
      mark();
      signal?.addEventListener("abort", () => resolve(toolText("stopped by its signal")));
    });
  return { started, told, untilAborted };
}

for (const event of ["cancel", "tool_cancel"]) {
  test(`a run-time tool's call is cancelled by \`${event}\`: its signal aborts, its module is told`, async () => {
    const w = waiting();
    const mod = defineWorkerModule({
      name: "mcp",
      hooks: {},
      runtimeTools: {
        list: async () => ({ revision: 1, tools: [] }),
        call: (_name, _args, ctx) => w.untilAborted(ctx.signal),
        cancel: (id) => w.told.push(id),
      },
    });
    const out = await callThenCancel(
      mod,
      req(1, "tool", { name: "mcp__s__slow", arguments: {}, call_id: "c1" }),
      req(2, event, { call_id: "c1" }),
      w.started,
    );
    expect(out[0]?.data).toMatchObject({ result: { content: "stopped by its signal", is_error: false } });
    expect(out[1]).toEqual({ id: 2, data: { call_id: "c1" } });
    expect(w.told).toEqual(["c1"]);
  });

  test(`a registry tool's call is cancelled by \`${event}\` the same way`, async () => {
    const w = waiting();
    const mod = defineWorkerModule({
      name: "agents",
      hooks: {},
      tools: [
        {
          decl: { name: "task", description: "d", input_schema: { type: "object" } },
          run: (_args, ctx) => w.untilAborted(ctx.signal),
        },
      ],
    });
    const out = await callThenCancel(
      mod,
      req(1, "tool", { name: "task", arguments: {}, call_id: "c9" }),
      req(2, event, { call_id: "c9" }),
      w.started,
    );
    expect(out[0]?.data).toMatchObject({ result: { content: "stopped by its signal" } });
  });
}

test("the built-in modules that run alone (ownProcess) are the ones that serve concurrently", async () => {
  for (const name of MODULE_NAMES) {
    const mod = await BUILTIN_WORKERS[name]();
    expect({ name, concurrent: mod.concurrent === true }).toEqual({
      name,
      concurrent: MODULES[name].ownProcess === true,
    });
    await mod.close?.();
  }
});
