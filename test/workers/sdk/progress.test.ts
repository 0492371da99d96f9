// One progress mechanism in the SDK: a registry tool and a tool declared at run time both report through
// `ctx.progress`, which streams `{id, progress}` lines for the call's request before its reply; nothing
// is streamed once the call was cancelled, and there is no event to ask for progress.
import { expect, test } from "bun:test";
import { PassThrough } from "node:stream";
import {
  defineWorkerModule,
  type ToolContext,
  toolText,
  type WorkerModule,
} from "../../../workers/sdk/module.ts";
import { serve } from "../../../workers/sdk/serve.ts";
import { req } from "./requests.ts";

/** Serve `lines` in order (each once the previous reply, or progress, arrived) and collect every line. */
async function exchange(module: WorkerModule, lines: unknown[], expected: number) {
  const input = new PassThrough();
  const out: Record<string, unknown>[] = [];
  const done = serve([module], { input, write: (l) => out.push(JSON.parse(l)), log: () => {} });
  for (const l of lines) input.write(`${JSON.stringify(l)}\n`);
  for (let i = 0; i < 400 && out.length < expected; i++) await Bun.sleep(5);
  input.end();
  await done;
  return out;
}

const twoSteps = async (ctx: ToolContext) => {
  ctx.progress?.({ progress: 1, total: 2 });
  await Bun.sleep(5);
  ctx.progress?.({ progress: 2, total: 2, message: "done" });
  return toolText("finished");
};

test("a run-time tool's progress streams as {id, progress} lines before its reply", async () => {
  const mod = defineWorkerModule({
    name: "mcp",
    hooks: {},
    concurrent: true,
    runtimeTools: { list: async () => ({ revision: 1, tools: [] }), call: (_n, _a, ctx) => twoSteps(ctx) },
  });
  const out = await exchange(
    mod,
    [req(7, "tool", { name: "mcp__s__long", arguments: {}, call_id: "c7" })],
    3,
  );
  expect(out).toEqual([
    { id: 7, progress: { progress: 1, total: 2 } },
    { id: 7, progress: { progress: 2, total: 2, message: "done" } },
    { id: 7, data: expect.objectContaining({ result: { content: "finished", is_error: false } }) },
  ]);
});

test("a registry tool's progress takes the same line", async () => {
  const mod = defineWorkerModule({
    name: "agents",
    hooks: {},
    tools: [
      {
        decl: { name: "task", description: "d", input_schema: { type: "object" } },
        run: (_a, ctx) => twoSteps(ctx),
      },
    ],
  });
  const out = await exchange(mod, [req(3, "tool", { name: "task", arguments: {}, call_id: "c3" })], 3);
  expect(out.map((l) => ("progress" in l ? "progress" : "reply"))).toEqual(["progress", "progress", "reply"]);
  expect(out[0]).toEqual({ id: 3, progress: { progress: 1, total: 2 } });
});

test("no progress after a cancel; a `progress` request is not an event the SDK answers for run-time tools", async () => {
  let later: (() => void) | undefined;
  const mod = defineWorkerModule({
    name: "mcp",
    hooks: {},
    concurrent: true,
    runtimeTools: {
      list: async () => ({ revision: 1, tools: [] }),
      call: (_n, _a, ctx) =>
        new Promise((resolve) => {
          ctx.signal?.addEventListener("abort", () => {
            later = () => ctx.progress?.({ progress: 9 });
            resolve(toolText("stopped"));
          });
        }),
    },
  });
  const out = await exchange(
    mod,
    [
      req(1, "tool", { name: "mcp__s__slow", arguments: {}, call_id: "c1" }),
      req(2, "progress", { call_id: "c1" }),
      req(3, "cancel", { call_id: "c1" }),
    ],
    3,
  );
  later?.();
  await Bun.sleep(20);
  expect(out.some((l) => "progress" in l)).toBe(false);
  // Handed back unchanged, like any event a module does not handle.
  expect(out.find((l) => l.id === 2)).toEqual({ id: 2, data: { call_id: "c1" } });
});
