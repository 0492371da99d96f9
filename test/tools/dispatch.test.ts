// The one tool dispatch: a core tool, a module tool and a run-time declared tool get the same wording for
// the same mistake; the seams run in order around the approval; a block is a tool error with its reason;
// the checkpoint seam runs once a turn, before the first call that may change files.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentEvent } from "../../src/contract/events.ts";
import type { ToolCall } from "../../src/contract/history.ts";
import { Approvals } from "../../src/tools/approvals.ts";
import { coreToolAdapter } from "../../src/tools/core-adapter.ts";
import { DeclaredTools } from "../../src/tools/declared-tools.ts";
import { type DispatchSeams, ToolDispatch } from "../../src/tools/dispatch.ts";
import { CORE_TOOLS } from "../../src/tools/index.ts";
import { moduleToolAdapter } from "../../src/tools/module-adapter.ts";
import type { ApprovalPolicy, ToolResult } from "../../src/tools/types.ts";
import { WorkerHost } from "../../src/worker/host.ts";
import { manifestOf, TempDirs } from "../worker/helpers.ts";
import { makeSandbox, type Sandbox } from "./helpers.ts";

let sb: Sandbox;
const temp = new TempDirs();
let host: WorkerHost;
const declaredCalls: unknown[] = [];
const declared = new DeclaredTools();

beforeAll(() => {
  sb = makeSandbox();
  const dir = temp.make();
  // No worker process starts: every call below is refused before it would reach the worker.
  host = new WorkerHost(manifestOf(["search"], dir), { workspace: dir, configDir: dir });
  declared.declare("lookup-server", [
    {
      decl: {
        name: "lookup",
        description: "look a pattern up",
        input_schema: {
          type: "object",
          properties: { pattern: { type: "string" }, limit: { type: "integer", minimum: 1 } },
          required: ["pattern"],
          additionalProperties: false,
        },
      },
      deadlineMs: 5000,
      mayChange: false,
      call: async (args) => {
        declaredCalls.push(args);
        return { content: "found", is_error: false };
      },
    },
  ]);
});
afterAll(async () => {
  await host.close();
  sb.cleanup();
  temp.cleanup();
});

function dispatch(opts: { policy?: ApprovalPolicy; seams?: DispatchSeams; events?: AgentEvent[] } = {}) {
  const approvals = new Approvals({ policy: opts.policy ?? "all" });
  return new ToolDispatch({
    adapters: [coreToolAdapter(CORE_TOOLS), moduleToolAdapter(host), declared],
    ctx: { workspace: sb.workspace, approvals },
    emit: (ev) => opts.events?.push(ev),
    ...(opts.seams ? { seams: opts.seams } : {}),
  });
}

const call = (name: string, args: string, id = "c1"): ToolCall => ({ id, name, arguments: args });

describe("one wording for bad arguments, whatever the kind of tool", () => {
  // Each tool has a required string argument: read's path, grep's pattern, lookup's pattern.
  const tools = [
    { kind: "core", name: "read", field: "path" },
    { kind: "module", name: "grep", field: "pattern" },
    { kind: "declared", name: "lookup", field: "pattern" },
  ];
  const mistakes = [
    {
      what: "a mistyped argument",
      args: (f: string) => JSON.stringify({ [f]: 5 }),
      want: (f: string) => `${f}: Invalid input: expected string, received number`,
    },
    {
      what: "a missing argument",
      args: () => "{}",
      want: (f: string) => `${f}: Invalid input: expected string, received undefined`,
    },
    {
      what: "an unknown argument instead of a required one",
      args: () => JSON.stringify({ bogus: 1 }),
      want: (f: string, name: string) =>
        `${f}: Invalid input: expected string, received undefined; ignored unknown argument bogus (${name} takes ${takes(name)})`,
    },
  ];
  const takes = (name: string) =>
    Object.keys(dispatch().find(name)?.decl.input_schema.properties as object).join(", ");
  for (const t of tools)
    for (const m of mistakes)
      test(`${m.what} for a ${t.kind} tool`, async () => {
        const r = await dispatch()
          .turn()
          .execute(call(t.name, m.args(t.field)));
        expect(r).toEqual({
          content: `invalid arguments for ${t.name}: ${m.want(t.field, t.name)}`,
          is_error: true,
        });
      });
  for (const t of tools)
    test(`malformed JSON for a ${t.kind} tool`, async () => {
      const r = await dispatch().turn().execute(call(t.name, '{"x":'));
      expect(r.is_error).toBe(true);
      expect(String(r.content)).toStartWith(`the arguments for ${t.name} are not valid JSON (`);
      expect(String(r.content)).toEndWith("); send one JSON object");
    });

  test("the refused calls never reached the declared tool; a good one does, with the arguments sent", async () => {
    expect(declaredCalls).toEqual([]);
    const r = await dispatch().turn().execute(call("lookup", '{"pattern":"p","limit":2}'));
    expect(r).toEqual({ content: "found", is_error: false });
    expect(declaredCalls).toEqual([{ pattern: "p", limit: 2 }]);
  });

  test("an unknown tool names every tool offered, of every kind", async () => {
    const r = await dispatch().turn().execute(call("nope", "{}"));
    expect(r.content).toBe(
      'unknown tool "nope"; available tools: read, write, edit, bash, apply_patch, grep, find, lookup',
    );
  });
});

/** Seams that record what ran, in order. */
function recording(log: string[], extra: Partial<DispatchSeams> = {}): DispatchSeams {
  return {
    beforeCall: async (c) => {
      log.push(`before ${c.name}`);
      return undefined;
    },
    beforeFirstChange: async (c) => {
      log.push(`checkpoint before ${c.name}`);
    },
    afterCall: async (c, r) => {
      log.push(`after ${c.name}${r.is_error ? " (error)" : ""}`);
      return undefined;
    },
    ...extra,
  };
}

describe("seams", () => {
  test("in order around the approval; the checkpoint once a turn, only before a call that may change files", async () => {
    const log: string[] = [];
    const approvals = new Approvals({
      policy: "ask",
      ask: async (req) => {
        log.push(`approve ${req.tool}`);
        return { kind: "yes" };
      },
    });
    const events: AgentEvent[] = [];
    const d = new ToolDispatch({
      adapters: [coreToolAdapter(CORE_TOOLS), declared],
      ctx: { workspace: sb.workspace, approvals },
      emit: (ev) => events.push(ev),
      seams: recording(log),
    });
    const turn = d.turn();
    await turn.runBatch([
      call("lookup", '{"pattern":"a"}', "a"),
      call("write", JSON.stringify({ path: "one.txt", content: "1\n" }), "b"),
    ]);
    await turn.runBatch([
      call("edit", JSON.stringify({ path: "one.txt", old_text: "1", new_text: "2" }), "c"),
    ]);
    expect(log).toEqual([
      "before lookup",
      "after lookup",
      "before write",
      "approve write",
      "checkpoint before write",
      "after write",
      "before edit",
      "approve edit",
      "after edit",
    ]);
    expect(readFileSync(join(sb.workspace, "one.txt"), "utf8")).toBe("2\n");
    expect(events.map((e) => `${e.type} ${"id" in e ? e.id : ""}`)).toEqual([
      "tool_call a",
      "tool_result a",
      "tool_call b",
      "tool_diff b",
      "tool_result b",
      "tool_call c",
      "tool_diff c",
      "tool_result c",
    ]);
    // A new turn checkpoints again, before its own first change.
    await d.turn().runBatch([call("bash", '{"command":"true"}', "d")]);
    expect(log.slice(-4)).toEqual(["before bash", "approve bash", "checkpoint before bash", "after bash"]);
  });

  test("a block is a tool error with the reason; the tool does not run and nothing else is asked", async () => {
    const log: string[] = [];
    const seams = recording(log, {
      beforeCall: async (c) => {
        log.push(`before ${c.name}`);
        return c.name === "write" ? { block: "writes are frozen during the release" } : undefined;
      },
    });
    const [msg] = await dispatch({ seams })
      .turn()
      .runBatch([call("write", JSON.stringify({ path: "blocked.txt", content: "x" }))]);
    expect(msg).toEqual({
      role: "tool",
      tool_call_id: "c1",
      content: "write was blocked before it ran: writes are frozen during the release",
      // The time is kept with the result for a resumed session's replay (never sent to the model).
      meta: { is_error: true, duration_ms: expect.any(Number) },
    });
    expect(existsSync(join(sb.workspace, "blocked.txt"))).toBe(false);
    expect(log).toEqual(["before write"]);
  });

  test("the seams see checked arguments and the kind and owner of the tool", async () => {
    const seen: unknown[] = [];
    const seams: DispatchSeams = {
      beforeCall: async (c) => {
        seen.push({ kind: c.kind, owner: c.owner, args: c.args, mayChange: c.mayChange });
        return undefined;
      },
    };
    const turn = dispatch({ seams }).turn();
    await turn.execute(call("lookup", '{"pattern":"q"}'));
    await turn.execute(call("bash", '{"command":"true"}'));
    expect(seen).toEqual([
      { kind: "declared", owner: "lookup-server", args: { pattern: "q" }, mayChange: false },
      { kind: "core", owner: "core", args: { command: "true" }, mayChange: true },
    ]);
  });

  test("a refused approval runs no checkpoint; a failed checkpoint refuses the change, and the next tries again", async () => {
    const log: string[] = [];
    const refused = await dispatch({ policy: "none", seams: recording(log) })
      .turn()
      .execute(call("write", JSON.stringify({ path: "no.txt", content: "x" })));
    expect(refused.is_error).toBe(true);
    expect(String(refused.content)).toStartWith("refused: the session is read-only");
    expect(log).toEqual(["before write"]);

    let attempts = 0;
    const turn = dispatch({
      seams: {
        beforeFirstChange: async () => {
          attempts++;
          if (attempts === 1) throw new Error("disk full");
        },
      },
    }).turn();
    const first = await turn.execute(call("write", JSON.stringify({ path: "cp.txt", content: "x" })));
    expect(first).toEqual({
      content: "write was not run: the checkpoint before the turn's first change failed: disk full",
      is_error: true,
    });
    expect(existsSync(join(sb.workspace, "cp.txt"))).toBe(false);
    const second = await turn.execute(call("write", JSON.stringify({ path: "cp.txt", content: "x" })));
    expect(second.is_error).toBe(false);
    await turn.execute(call("write", JSON.stringify({ path: "cp.txt", content: "y" })));
    expect(attempts).toBe(2);
  });

  test("afterCall may replace the result; the replacement is capped like any result", async () => {
    const big = "z".repeat(400 * 1024);
    const r = await dispatch({
      seams: { afterCall: async (): Promise<ToolResult> => ({ content: big, is_error: false }) },
    })
      .turn()
      .execute(call("bash", '{"command":"true"}'));
    expect(String(r.content).length).toBeLessThan(330 * 1024);
    expect(String(r.content)).toContain("the result was too large for the conversation");
  });
});

describe("run-time declared tools", () => {
  test("a call past its deadline is stopped and answered with an error naming its owner", async () => {
    const slow = new DeclaredTools();
    let aborted = false;
    slow.declare("slow-server", [
      {
        decl: { name: "wait", description: "waits", input_schema: { type: "object" } },
        deadlineMs: 50,
        mayChange: true,
        call: (_args, { signal }) =>
          new Promise<ToolResult>((resolve) => {
            signal.addEventListener("abort", () => {
              aborted = true;
              setTimeout(() => resolve({ content: "late", is_error: false }), 10);
            });
          }),
      },
    ]);
    const d = new ToolDispatch({
      adapters: [slow],
      ctx: { workspace: sb.workspace, approvals: new Approvals({ policy: "all" }) },
      emit: () => {},
    });
    const r = await d.turn().execute(call("wait", "{}"));
    expect(r).toEqual({
      content:
        "wait (from slow-server) gave no result within 50 ms, so it was stopped; whatever it returns later is discarded",
      is_error: true,
    });
    expect(aborted).toBe(true);
    slow.withdraw("slow-server");
    expect(d.decls()).toEqual([]);
  });
});

describe("the forgiving reading of arguments", () => {
  test("other agents' names for path, old_text and new_text work in one call", async () => {
    writeFileSync(join(sb.workspace, "alias.txt"), "alpha beta\n");
    const turn = dispatch().turn();
    const snake = await turn.execute(
      call("edit", JSON.stringify({ file_path: "alias.txt", old_str: "alpha", new_str: "gamma" })),
    );
    expect(snake).toEqual({
      content: "Edited alias.txt: replaced 1 occurrence (line 1)\n1\tgamma beta",
      is_error: false,
    });
    const camel = await turn.execute(
      call("edit", JSON.stringify({ filePath: "alias.txt", oldString: "beta", newString: "delta" })),
    );
    expect(camel.is_error).toBe(false);
    expect(readFileSync(join(sb.workspace, "alias.txt"), "utf8")).toBe("gamma delta\n");
    const read = await turn.execute(call("read", JSON.stringify({ file_path: "alias.txt" })));
    expect(read).toEqual({ content: "1\tgamma delta", is_error: false });
  });

  test("an alias beside the argument it stands for is not used: it is dropped and named", async () => {
    const r = await dispatch()
      .turn()
      .execute(call("read", JSON.stringify({ path: "alias.txt", file_path: "other.txt" })));
    expect(r).toEqual({
      content: "1\tgamma delta\n[ignored unknown argument file_path (read takes path, offset, limit)]",
      is_error: false,
    });
  });

  test("unknown arguments of a declared tool are dropped before it is called, and named in its result", async () => {
    declaredCalls.length = 0;
    const r = await dispatch()
      .turn()
      .execute(call("lookup", JSON.stringify({ pattern: "p", verbose: true, colour: "red" })));
    expect(r).toEqual({
      content: "found\n[ignored unknown arguments verbose, colour (lookup takes pattern, limit)]",
      is_error: false,
    });
    expect(declaredCalls).toEqual([{ pattern: "p" }]);
  });

  test("a schema open to other properties keeps them; its tool decides", async () => {
    const open = new DeclaredTools();
    const got: unknown[] = [];
    open.declare("open-server", [
      {
        decl: {
          name: "open",
          description: "takes anything",
          input_schema: { type: "object", properties: { q: { type: "string" } } },
        },
        deadlineMs: 1000,
        mayChange: false,
        call: async (args) => {
          got.push(args);
          return { content: "ok", is_error: false };
        },
      },
    ]);
    const d = new ToolDispatch({
      adapters: [open],
      ctx: { workspace: sb.workspace, approvals: new Approvals({ policy: "all" }) },
      emit: () => {},
    });
    expect(await d.turn().execute(call("open", '{"q":"a","extra":1}'))).toEqual({
      content: "ok",
      is_error: false,
    });
    expect(got).toEqual([{ q: "a", extra: 1 }]);
  });
});
