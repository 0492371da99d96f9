// The worker host on the happy path: pipelines, tools, shared and bound processes, persistence, languages.
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Manifest } from "../../src/contract/manifest.ts";
import { WorkerHost } from "../../src/worker/host.ts";
import { ObservedHost } from "../helpers/observed-host.ts";
import { BUDGET_REPLY, BUN, ECHO, manifestOf, PY_CACHE, pidExists, TempDirs } from "./helpers.ts";

const temp = new TempDirs();
const hosts: ObservedHost[] = [];
const dir = temp.make();

function host(manifest: Manifest, deadlineMs?: number): ObservedHost {
  const h = new ObservedHost(manifest, { workspace: dir, configDir: dir, deadlineMs });
  hosts.push(h);
  return h;
}
const echo = (module: string, ...extra: string[]) => ({ exec: [BUN, ECHO, "--module", module, ...extra] });

/** The raw request lines a recording echo worker received. */
function recorded(file: string): Record<string, unknown>[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
});
afterAll(() => temp.cleanup());

const conversation = [
  { role: "system", content: "be brief" },
  { role: "user", content: "hi" },
  { role: "assistant", content: "hello" },
  { role: "user", content: "again" },
];

describe("WorkerHost", () => {
  test("a hook event runs its modules in manifest order as a pipeline, unrelated fields kept", async () => {
    const m = manifestOf(["prompts", "skills", "memory"], dir, {
      prompts: echo("prompts"),
      skills: echo("skills"),
      memory: echo("memory"),
    });
    const h = host(m);
    expect(h.hasHook("system_prompt")).toBe(true);
    expect(h.hasHook("budget")).toBe(false);
    const out = await h.runHook("system_prompt", { system: "base", keep: { nested: [1, 2] } });
    expect(out).toEqual({
      system: "base",
      keep: { nested: [1, 2] },
      trace: ["prompts:system_prompt", "skills:system_prompt", "memory:system_prompt"],
    });
    // Bound modules each run alone.
    const pids = new Set([h.pidOf("prompts"), h.pidOf("skills"), h.pidOf("memory")]);
    expect(pids.size).toBe(3);
    expect(h.spawned).toBe(3);
  });

  test("an event nobody declares passes through without starting anything", async () => {
    const h = host(manifestOf(["skills"], dir, { skills: echo("skills") }));
    expect(await h.runHook("budget", { ...BUDGET_REPLY, a: 1 })).toEqual({ ...BUDGET_REPLY, a: 1 });
    expect(h.spawned).toBe(0);
  });

  test("workers start lazily, on the first event that needs them", async () => {
    const h = host(manifestOf(["budget", "skills"], dir, { budget: echo("budget"), skills: echo("skills") }));
    await h.runHook("budget", { ...BUDGET_REPLY, ...BUDGET_REPLY });
    expect(h.pidOf("budget")).toBeNumber();
    expect(h.pidOf("skills")).toBeUndefined();
    expect(h.spawned).toBe(1);
  });

  test("tools: declarations from the manifest, calls answered with the validated result", async () => {
    const h = host(manifestOf(["search", "memory"], dir, { search: echo("search"), memory: echo("memory") }));
    expect(
      h
        .toolDecls()
        .map((t) => t.name)
        .sort(),
    ).toEqual(["find", "grep", "memory"]);
    const grep = h.toolDecls().find((t) => t.name === "grep");
    expect(grep?.input_schema).toMatchObject({ type: "object", required: ["pattern"] });
    expect(await h.callTool("grep", { pattern: "x" }, "call-1")).toEqual({
      content: 'search:grep:{"pattern":"x"}',
      is_error: false,
    });
    expect(await h.callTool("memory", { action: "list" }, "call-2")).toEqual({
      content: 'memory:memory:{"action":"list"}',
      is_error: false,
    });
    await expect(h.callTool("nope", {}, "c")).rejects.toThrow('no worker module serves tool "nope"');
  });

  test("built-in modules share one process; every request names its module, a bound one never", async () => {
    const sharedLog = join(dir, "shared-requests.jsonl");
    const boundLog = join(dir, "bound-requests.jsonl");
    // The echo fixture stands in for `i worker skills,memory` (self = the fixture).
    const m = manifestOf(
      ["budget", "skills", "memory"],
      dir,
      { budget: echo("budget", "--record", boundLog) },
      [BUN, ECHO, "--record", sharedLog],
    );
    expect(m.modules.find((x) => x.name === "skills")?.exec.slice(-2)).toEqual(["worker", "skills,memory"]);
    const h = host(m);
    const out = await h.runHook("system_prompt", { system: "S" });
    expect(out.trace).toEqual(["skills:system_prompt", "memory:system_prompt"]);
    expect(await h.callTool("skill", { name: "x" }, "c1")).toMatchObject({
      content: 'skills:skill:{"name":"x"}',
    });
    await h.runHook("budget", { ...BUDGET_REPLY, ...BUDGET_REPLY });
    expect(h.pidOf("skills")).toBe(h.pidOf("memory") as number);
    expect(h.pidOf("budget")).not.toBe(h.pidOf("skills") as number);
    expect(h.spawned).toBe(2);

    const shared = recorded(sharedLog);
    const hellos = shared.filter((r) => r.event === "hello");
    expect(hellos.map((r) => [r.module, (r.data as { module: string }).module]).sort()).toEqual([
      ["memory", "memory"],
      ["skills", "skills"],
    ]);
    expect(shared.every((r) => typeof r.module === "string")).toBe(true);
    expect(shared.every((r) => r.workspace === dir)).toBe(true);
    const bound = recorded(boundLog);
    expect(bound.map((r) => r.event)).toEqual(["hello", "budget"]);
    expect(bound.some((r) => "module" in r)).toBe(false);
  });

  test("the real built-in cache module through `i worker cache`", async () => {
    const h = host(manifestOf(["cache"], dir));
    expect(h.toolDecls()).toEqual([]);
    const out = await h.runHook("before_request", {
      provider: "anthropic",
      model: "m",
      messages: conversation,
    });
    expect(out).toEqual({
      provider: "anthropic",
      model: "m",
      messages: conversation,
      hints: { cache_breakpoints: [0, 1, 3] },
    });
    expect(await h.runHook("before_request", { provider: "openai", messages: conversation })).toEqual({
      provider: "openai",
      messages: conversation,
    });
    // An event the module does not handle comes back unchanged.
    expect(await h.send("cache", "doctor_ping", { n: [1, { x: null }] })).toEqual({ n: [1, { x: null }] });
  });

  test("a Python worker speaks the same protocol as the built-in one", async () => {
    const data = {
      provider: "anthropic",
      model: "m",
      messages: conversation,
      hints: { other: 1 },
      extra: "é✓",
    };
    const py = host(manifestOf(["cache"], dir, { cache: { exec: [PY_CACHE] } }));
    const builtin = host(manifestOf(["cache"], dir));
    const fromPython = await py.runHook("before_request", data);
    expect(fromPython).toEqual(await builtin.runHook("before_request", data));
    expect(fromPython.hints).toEqual({ other: 1, cache_breakpoints: [0, 1, 3] });
    expect(await py.send("cache", "doctor_ping", { a: "b" })).toEqual({ a: "b" });
  });

  test("one persistent process serves 1000 requests, sequential and concurrent, ids matched", async () => {
    const h = host(manifestOf(["budget"], dir, { budget: echo("budget") }));
    await h.runHook("budget", { ...BUDGET_REPLY, ...BUDGET_REPLY });
    const pid = h.pidOf("budget");
    for (let i = 0; i < 500; i++) {
      const out = await h.runHook("budget", { ...BUDGET_REPLY, i });
      if (out.i !== i) throw new Error(`request ${i} got the reply for ${String(out.i)}`);
    }
    const replies = await Promise.all(
      Array.from({ length: 500 }, (_, i) => h.runHook("budget", { ...BUDGET_REPLY, i })),
    );
    expect(replies.every((r, i) => r.i === i)).toBe(true);
    expect(h.pidOf("budget")).toBe(pid as number);
    expect(h.spawned).toBe(1);
    expect(h.requestsOf("budget")).toBe(1002); // hello + 1 + 1000
  });

  test("optional checkpoint hook declared at hello joins the checkpoint pipeline", async () => {
    const h = host(
      manifestOf(["budget", "skills"], dir, {
        budget: echo("budget", "--checkpoint"),
        skills: echo("skills"),
      }),
    );
    expect(h.hasHook("checkpoint")).toBe(false);
    await h.start();
    expect(h.hasHook("checkpoint")).toBe(true);
    expect(await h.runHook("checkpoint", { session: "s" })).toEqual({
      session: "s",
      trace: ["budget:checkpoint"],
    });
  });

  test("a hand-written manifest routing to a module it does not list is refused up front", () => {
    const m = manifestOf(["budget"], dir);
    const ref = m.hooks.budget?.[0];
    if (!ref) throw new Error("budget declares the budget hook");
    const broken: Manifest = { ...m, hooks: { ...m.hooks, steer: [{ ...ref, module: "steering" }] } };
    expect(() => new WorkerHost(broken, { workspace: dir, configDir: dir })).toThrow(
      'manifest: hooks.steer names module "steering", which is not in "modules"; regenerate it with `i --runtime manifest`',
    );
  });

  test("close() stops and reaps every worker", async () => {
    const h = host(manifestOf(["budget", "cache"], dir, { budget: echo("budget") }));
    await h.start();
    const pids = [h.pidOf("budget"), h.pidOf("cache")] as number[];
    expect(pids.every(pidExists)).toBe(true);
    await h.close();
    expect(pids.some(pidExists)).toBe(false);
    await expect(h.runHook("budget", { ...BUDGET_REPLY, ...BUDGET_REPLY })).rejects.toThrow(
      "the worker host is closed",
    );
  });
});
