import { describe, expect, test } from "bun:test";
import { PassThrough } from "node:stream";
import { defineWorkerModule, toolError, toolText, type WorkerModule } from "../../../workers/sdk/module.ts";
import { serve } from "../../../workers/sdk/serve.ts";
import { req } from "./requests.ts";

/** Run `serve` over in-memory streams: feed request lines, collect parsed replies until input ends. */
async function exchange(modules: WorkerModule[], requests: unknown[]) {
  const input = new PassThrough();
  const out: Record<string, unknown>[] = [];
  const logs: string[] = [];
  const done = serve(modules, {
    input,
    write: (line) => {
      expect(line.endsWith("\n")).toBe(true);
      out.push(JSON.parse(line));
    },
    log: (m) => logs.push(m),
  });
  for (const r of requests) input.write(typeof r === "string" ? r : `${JSON.stringify(r)}\n`);
  input.end();
  await done;
  // Handlers are async: give them a moment to answer after the input ended.
  for (let i = 0; i < 20 && out.length < requests.length; i++) await new Promise((r) => setTimeout(r, 5));
  return { out: out.sort((a, b) => Number(a.id) - Number(b.id)), logs };
}

const notes = defineWorkerModule({
  name: "memory",
  hooks: { system_prompt: (d) => ({ ...d, memory: true }) },
  tools: [
    {
      decl: { name: "memory", description: "d", input_schema: { type: "object" } },
      run: (args, ctx) => toolText(`${ctx.callId}:${JSON.stringify(args)}`),
    },
  ],
});
const skills = defineWorkerModule({
  name: "skills",
  hooks: { system_prompt: async (d) => ({ ...d, skills: true }) },
  tools: [
    {
      decl: { name: "skill", description: "d", input_schema: { type: "object" } },
      run: () => toolError("no such skill"),
    },
  ],
});

describe("serve", () => {
  test("hello answers with the declarations and keeps the request data", async () => {
    const { out } = await exchange([notes], [req(1, "hello", { protocol: 1, module: "memory" })]);
    expect(out[0]).toEqual({
      id: 1,
      data: {
        protocol: 1,
        module: "memory",
        hooks: ["system_prompt"],
        tools: [{ name: "memory", description: "d", input_schema: { type: "object" } }],
      },
    });
  });

  test("hooks get the data and unhandled events come back unchanged", async () => {
    const data = { keep: { deep: [1, 2] } };
    const { out } = await exchange([notes], [req(1, "system_prompt", data), req(2, "doctor_ping", data)]);
    expect(out).toEqual([
      { id: 1, data: { ...data, memory: true } },
      { id: 2, data },
    ]);
  });

  test("an event named like an Object property is not mistaken for a hook", async () => {
    const { out } = await exchange([notes], [req(1, "constructor", { a: 1 }), req(2, "toString", { b: 2 })]);
    expect(out).toEqual([
      { id: 1, data: { a: 1 } },
      { id: 2, data: { b: 2 } },
    ]);
  });

  test("tools return the result beside the request data", async () => {
    const call = { name: "memory", arguments: { action: "list" }, call_id: "c7" };
    const { out } = await exchange([notes], [req(3, "tool", call)]);
    expect(out[0]).toEqual({
      id: 3,
      data: { ...call, result: { content: 'c7:{"action":"list"}', is_error: false } },
    });
  });

  test("one process serving two modules routes by the module field", async () => {
    const { out } = await exchange(
      [notes, skills],
      [
        req(1, "hello", { protocol: 1, module: "skills" }, "skills"),
        req(2, "system_prompt", {}, "skills"),
        req(3, "system_prompt", {}, "memory"),
        req(4, "tool", { name: "skill", arguments: {}, call_id: "x" }, "skills"),
      ],
    );
    expect((out[0]?.data as { module?: string } | undefined)?.module).toBe("skills");
    expect(out[1]?.data).toEqual({ skills: true });
    expect(out[2]?.data).toEqual({ memory: true });
    expect((out[3]?.data as { result?: unknown } | undefined)?.result).toEqual({
      content: "no such skill",
      is_error: true,
    });
  });

  test("handler failures become error replies, not crashes", async () => {
    const broken = defineWorkerModule({
      name: "budget",
      hooks: {
        budget: () => {
          throw new Error("cannot estimate");
        },
        // A hook that returns something other than an object is a bug the SDK reports, not forwards.
        system_prompt: () => [] as never,
      },
    });
    const { out } = await exchange(
      [broken],
      [
        req(1, "budget", {}),
        req(2, "system_prompt", {}),
        req(3, "tool", { name: "nope", arguments: {}, call_id: "" }),
      ],
    );
    expect(out).toEqual([
      { id: 1, error: "cannot estimate" },
      { id: 2, error: 'hook "system_prompt" of module "budget" did not return an object' },
      { id: 3, error: 'unknown tool "nope"' },
    ]);
  });

  test("an invalid tool result is reported as an error reply", async () => {
    const bad = defineWorkerModule({
      name: "search",
      hooks: {},
      tools: [
        { decl: { name: "grep", description: "", input_schema: {} }, run: () => ({ content: 5 }) as never },
      ],
    });
    const { out } = await exchange([bad], [req(1, "tool", { name: "grep", arguments: {}, call_id: "" })]);
    expect(out[0]).toEqual({ id: 1, error: 'tool "grep" returned an invalid result' });
  });

  test("malformed request lines are logged and dropped; blank lines ignored", async () => {
    const { out, logs } = await exchange([notes], ["not json\n", "\n", '{"id":-1}\n', req(5, "x", {})]);
    expect(out).toEqual([{ id: 5, data: {} }]);
    expect(logs.length).toBe(2);
    expect(logs.every((l) => l.startsWith("protocol: dropping malformed request"))).toBe(true);
  });

  test("hello for a module this worker does not serve is an error", async () => {
    const { out } = await exchange([notes, skills], [req(1, "hello", { protocol: 1, module: "web" })]);
    expect(out[0]).toEqual({ id: 1, error: 'this worker does not serve module "web"' });
  });
});
