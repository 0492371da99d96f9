// Every way a worker can fail: the request fails with a WorkerError naming module, event and cause; the
// process is killed and reaped; nothing is replayed; the next request starts a fresh process; no fallback.
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { BindingsFile } from "../../src/contract/config.ts";
import type { ModuleName } from "../../src/contract/registry.ts";
import { WorkerError } from "../../src/worker/host.ts";
import { ObservedHost } from "../helpers/observed-host.ts";
import { BUDGET_REPLY, BUN, MISBEHAVE, manifestOf, misbehaving, pidExists, TempDirs } from "./helpers.ts";

const temp = new TempDirs();
const hosts: ObservedHost[] = [];

/** A host for one module; `bindings` may depend on the path of the request-count file. */
function setup(
  module: ModuleName,
  bindings: BindingsFile | ((count: string) => BindingsFile),
  opts: { deadlineMs?: number; helloDeadlineMs?: number; maxLineBytes?: number } = {},
) {
  const dir = temp.make();
  const count = join(dir, "count.txt");
  const b = typeof bindings === "function" ? bindings(count) : bindings;
  // A short request deadline must not also cover starting the worker, which takes seconds on a busy machine.
  const h = new ObservedHost(manifestOf([module], dir, b), {
    workspace: dir,
    configDir: dir,
    helloDeadlineMs: 30_000,
    ...opts,
  });
  hosts.push(h);
  return { h, dir, count };
}

/** The lines "<pid> <event> <id>" the counting fixture wrote, for one event. */
function counted(file: string, event: string): { pid: string; id: string }[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => l.split(" "))
    .filter((p) => p[1] === event)
    .map(([pid = "", , id = ""]) => ({ pid, id }));
}

async function failure(p: Promise<unknown>): Promise<WorkerError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof WorkerError) return err;
    throw err;
  }
  throw new Error("expected the request to fail");
}

afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
});
afterAll(() => temp.cleanup());

/** Modes that break on a request after a good handshake, with the reason and message they must produce. */
const EVICTING: [mode: string, reason: WorkerError["reason"], message: RegExp, deadlineMs?: number][] = [
  ["hang", "timeout", /^worker "budget" failed on event "budget": no reply within 300 ms$/, 300],
  [
    "crash",
    "crash",
    /failed on event "budget": exited with code 70; its last output: misbehave: crashing on purpose$/,
  ],
  ["garbage", "malformed", /failed on event "budget": sent a line that is not JSON: "this is not json"$/],
  ["invalid", "malformed", /failed on event "budget": sent an invalid reply: field /],
  [
    "wrong-id",
    "wrong_id",
    /failed on event "budget": replied with id \d+, which matches no request in flight$/,
  ],
  ["huge", "oversize", /failed on event "budget": sent a line longer than 67108864 bytes$/],
  [
    "alter",
    "malformed",
    /^worker "budget" failed on event "budget": the reply changed the field "keep" it was sent; on "budget" a module may change only "budget", "state" and must return every other field unchanged$/,
  ],
];

describe("eviction", () => {
  for (const [mode, reason, message, deadlineMs] of EVICTING) {
    test(`${mode}: fails with ${reason}, old process reaped, no replay, fresh process next`, async () => {
      const { h, count } = setup("budget", (file) => ({ budget: misbehaving("budget", mode, file) }), {
        deadlineMs,
      });
      await h.start();
      const first = h.pidOf("budget") as number;
      expect(pidExists(first)).toBe(true);

      const err = await failure(h.runHook("budget", { ...BUDGET_REPLY, n: 1, keep: { nested: [1] } }));
      expect(err.reason).toBe(reason);
      expect(err.module).toBe("budget");
      expect(err.event).toBe("budget");
      expect(err.message).toMatch(message);
      expect(pidExists(first)).toBe(false); // killed and reaped: not even a zombie
      expect(h.pidOf("budget")).toBeUndefined();
      expect(counted(count, "budget")).toEqual([{ pid: String(first), id: "2" }]); // received once, never replayed

      // The next request starts a fresh process (which misbehaves the same way, here).
      await failure(h.runHook("budget", { ...BUDGET_REPLY, n: 2, keep: { nested: [1] } }));
      const seen = counted(count, "budget");
      expect(seen.length).toBe(2);
      expect(seen[1]?.pid).not.toBe(String(first));
      expect(h.spawned).toBe(2);
    });
  }

  test("crash mid-request: that request fails, the next one is served by a fresh process", async () => {
    const { h, count } = setup("budget", (file) => ({ budget: misbehaving("budget", "crash-first", file) }));
    const err = await failure(h.runHook("budget", { ...BUDGET_REPLY, n: 1 }));
    expect(err.reason).toBe("crash");
    expect(await h.runHook("budget", { ...BUDGET_REPLY, n: 2 })).toEqual({ ...BUDGET_REPLY, n: 2 });
    const seen = counted(count, "budget");
    expect(seen.length).toBe(2); // n:1 once (not replayed), n:2 once
    expect(seen[0]?.pid).not.toBe(seen[1]?.pid);
    expect(h.pidOf("budget")).toBe(Number(seen[1]?.pid));
  });

  test("every request in flight on an evicted process fails, none is replayed", async () => {
    const { h, count } = setup("budget", (file) => ({ budget: misbehaving("budget", "hang", file) }), {
      deadlineMs: 300,
    });
    const errs = await Promise.all(
      [1, 2, 3].map((n) => failure(h.runHook("budget", { ...BUDGET_REPLY, n }))),
    );
    expect(errs.map((e) => e.reason)).toEqual(["timeout", "timeout", "timeout"]);
    expect(errs.filter((e) => e.detail === "no reply within 300 ms").length).toBeGreaterThanOrEqual(1);
    expect(errs.every((e) => /no reply within 300 ms/.test(e.detail))).toBe(true);
    expect(counted(count, "budget").length).toBe(3);
    expect(h.spawned).toBe(1);
  });

  test("an invalid tool result evicts; an error reply does not", async () => {
    const bad = setup("search", { search: misbehaving("search", "bad-tool-result") });
    const err = await failure(bad.h.callTool("grep", { pattern: "x" }, "c1"));
    expect(err.reason).toBe("malformed");
    expect(err.message).toMatch(
      /^worker "search" failed on event "tool": sent an invalid tool result: field result\.content: /,
    );
    expect(bad.h.pidOf("search")).toBeUndefined();

    const refusing = setup("budget", { budget: misbehaving("budget", "error") });
    await refusing.h.start();
    const pid = refusing.h.pidOf("budget");
    const e2 = await failure(refusing.h.runHook("budget", { ...BUDGET_REPLY, ...BUDGET_REPLY }));
    expect(e2.reason).toBe("error_reply");
    expect(e2.message).toBe(
      'worker "budget" failed on event "budget": the worker answered with an error: refusing on purpose',
    );
    expect(refusing.h.pidOf("budget")).toBe(pid as number); // a well-formed error is not a protocol fault
  });

  test("a request over the line limit is refused before it is sent; the worker stays", async () => {
    const { h, count } = setup("budget", (file) => ({ budget: misbehaving("budget", "ok", file) }), {
      maxLineBytes: 1000,
    });
    await h.start();
    const pid = h.pidOf("budget");
    const err = await failure(h.runHook("budget", { ...BUDGET_REPLY, big: "é".repeat(600) }));
    expect(err.reason).toBe("oversize");
    expect(err.detail).toMatch(/^request of \d+ bytes is over the 1000-byte line limit; not sent$/);
    expect(counted(count, "budget")).toEqual([]);
    expect(await h.runHook("budget", { ...BUDGET_REPLY, small: 1 })).toEqual({ ...BUDGET_REPLY, small: 1 });
    expect(h.pidOf("budget")).toBe(pid as number);
  });
});

describe("start-up and handshake", () => {
  test("a worker that exits at start", async () => {
    const { h } = setup("budget", { budget: misbehaving("budget", "exit-at-start") });
    const err = await failure(h.runHook("budget", { ...BUDGET_REPLY, ...BUDGET_REPLY }));
    expect(err.reason).toBe("exit");
    expect(err.message).toBe(
      'worker "budget" failed on event "budget": could not start: its handshake failed: exited (code 0) instead of serving requests',
    );
  });

  test("a worker that dies of an uncaught error at start: its own last line, not the runtime's banner", async () => {
    const dir = temp.make();
    const script = join(dir, "dies.ts");
    await Bun.write(script, 'throw new Error("Unknown option \'" + process.argv[2] + "\'");\n');
    const { h } = setup("budget", { budget: { exec: [BUN, script, "--compact"] } });
    const err = await failure(h.runHook("budget", { ...BUDGET_REPLY, ...BUDGET_REPLY }));
    expect(err.reason).toBe("crash");
    expect(err.message).toMatch(/exited with code 1; its last output: error: Unknown option '--compact'$/);
    expect(err.message).not.toContain("Bun v");
  });

  test("an executable that does not exist, and a missing working directory", async () => {
    const missing = setup("budget", { budget: { exec: ["/nonexistent/worker-binary"] } });
    const err = await failure(missing.h.runHook("budget", { ...BUDGET_REPLY, ...BUDGET_REPLY }));
    expect(err.reason).toBe("spawn");
    expect(err.message).toMatch(
      /could not start: its handshake failed: cannot start \/nonexistent\/worker-binary: .*ENOENT/,
    );

    const noCwd = setup("budget", { budget: { ...misbehaving("budget", "ok"), cwd: "/nonexistent/dir" } });
    const e2 = await failure(noCwd.h.runHook("budget", { ...BUDGET_REPLY, ...BUDGET_REPLY }));
    expect(e2.reason).toBe("spawn");
    expect(e2.detail).toMatch(/working directory \/nonexistent\/dir does not exist$/);
  });

  test("declarations that differ from the registry are refused, naming module and difference", async () => {
    const hooks = setup("budget", { budget: misbehaving("budget", "wrong-hooks") });
    const e1 = await failure(hooks.h.runHook("budget", { ...BUDGET_REPLY, ...BUDGET_REPLY }));
    expect(e1.reason).toBe("handshake");
    expect(e1.message).toBe(
      'worker "budget" failed on event "budget": could not start: its handshake failed: declarations differ from module "budget": missing hook(s) "budget"; undeclared hook(s) "steer"',
    );

    const schema = setup("search", { search: misbehaving("search", "wrong-schema") });
    const e2 = await failure(schema.h.callTool("grep", { pattern: "x" }, "c"));
    expect(e2.reason).toBe("handshake");
    expect(e2.detail).toMatch(/declarations differ from module "search": tool "grep": input_schema differs$/);
    expect(schema.h.pidOf("search")).toBeUndefined();
  });

  test("a worker that never answers hello fails at its own hello deadline, not the request's", async () => {
    const { h } = setup("budget", { budget: { exec: ["sleep", "30"] } }, { helloDeadlineMs: 400 });
    const started = performance.now();
    const err = await failure(h.runHook("budget", { ...BUDGET_REPLY, n: 1 }));
    expect(err.reason).toBe("timeout");
    expect(err.message).toContain("no reply within 400 ms");
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(h.pidOf("budget")).toBeUndefined();
  });

  test("an error answer to hello fails the handshake and evicts", async () => {
    const { h } = setup("budget", { budget: misbehaving("budget", "hello-error") });
    const err = await failure(h.runHook("budget", { ...BUDGET_REPLY, ...BUDGET_REPLY }));
    expect(err.reason).toBe("error_reply");
    expect(err.detail).toBe(
      "could not start: its handshake failed: the worker answered with an error: no hello today",
    );
    expect(h.pidOf("budget")).toBeUndefined();
  });

  test("concurrent first requests share one start, and all fail with it", async () => {
    const { h } = setup("budget", { budget: misbehaving("budget", "exit-at-start") });
    const errs = await Promise.all(
      [1, 2].map(() => failure(h.runHook("budget", { ...BUDGET_REPLY, ...BUDGET_REPLY }))),
    );
    expect(errs.map((e) => e.reason)).toEqual(["exit", "exit"]);
    expect(h.spawned).toBe(1);
  });
});

describe("shared built-in process", () => {
  /** budget and cache served by one process; the fixture stands in for `i worker budget,cache`. */
  function shared(...flags: string[]) {
    const dir = temp.make();
    const count = join(dir, "count.txt");
    const manifest = manifestOf(["budget", "cache"], dir, {}, [BUN, MISBEHAVE, "--count", count, ...flags]);
    const h = new ObservedHost(manifest, { workspace: dir, configDir: dir });
    hosts.push(h);
    return { h, count };
  }

  test("one module's failed handshake fails the process for every module it serves", async () => {
    const { h } = shared("--mode", "hello-error", "--only", "cache");
    const err = await failure(h.runHook("budget", { ...BUDGET_REPLY, ...BUDGET_REPLY }));
    expect(err.reason).toBe("error_reply");
    expect(err.message).toBe(
      'worker "budget" failed on event "budget": could not start: the handshake of module "cache" in the same process failed: the worker answered with an error: no hello today',
    );
    expect(h.pidOf("budget")).toBeUndefined();
  });

  test("a crash while serving one module evicts it for both; the next request starts a fresh one", async () => {
    const { h, count } = shared("--mode", "crash", "--only", "budget");
    await h.start();
    const pid = h.pidOf("cache") as number;
    expect(h.pidOf("budget")).toBe(pid);
    const err = await failure(h.runHook("budget", { ...BUDGET_REPLY, ...BUDGET_REPLY }));
    expect(err.reason).toBe("crash");
    expect(pidExists(pid)).toBe(false);
    expect(h.pidOf("cache")).toBeUndefined();
    const data = { provider: "openai", messages: [] };
    expect(await h.runHook("before_request", data)).toEqual(data);
    expect(h.pidOf("cache")).not.toBe(pid);
    expect(h.spawned).toBe(2);
    expect(counted(count, "budget").length).toBe(1);
  });
});

describe("no fallback", () => {
  test("a failing replacement never falls back to the built-in module", async () => {
    const { h, dir } = setup("cache", { cache: misbehaving("cache", "crash") });
    const data = { provider: "anthropic", messages: [{ role: "system" }, { role: "user" }] };
    const err = await failure(h.runHook("before_request", data));
    expect(err.reason).toBe("crash");
    expect(h.spawned).toBe(1);
    // Nothing ran `i worker cache`: its log would exist, and the data got no hints.
    expect(existsSync(join(dir, "logs", "builtin.log"))).toBe(false);
    expect(data).toEqual({ provider: "anthropic", messages: [{ role: "system" }, { role: "user" }] });
  });
});

describe("worker logs", () => {
  test("stderr goes to <config_dir>/logs/<module>.log with the host's notes", async () => {
    const { h, dir } = setup("budget", { budget: misbehaving("budget", "crash") });
    await failure(h.runHook("budget", { ...BUDGET_REPLY, ...BUDGET_REPLY }));
    const log = readFileSync(join(dir, "logs", "budget.log"), "utf8");
    expect(log).toContain("misbehave: crashing on purpose");
    expect(log).toMatch(/started pid \d+/);
    expect(log).toContain("evicted (crash): exited with code 70");
  });
});

describe("the worker deadline", () => {
  test("defaults to 15 s (the protocol's constant, and what a host without the option uses)", async () => {
    const { DEFAULT_DEADLINE_MS } = await import("../../src/contract/protocol.ts");
    expect(DEFAULT_DEADLINE_MS).toBe(15_000);
    const dir = temp.make();
    const h = new ObservedHost(manifestOf(["budget"], dir, { budget: misbehaving("budget", "ok") }), {
      workspace: dir,
      configDir: dir,
    });
    hosts.push(h);
    expect(h.deadline).toBe(15_000);
  });

  test("a shorter deadline is honoured: a hang fails after it, not after 15 s", async () => {
    const { h } = setup("budget", { budget: misbehaving("budget", "hang") }, { deadlineMs: 400 });
    await h.start();
    const started = Date.now();
    const err = await failure(h.runHook("budget", { ...BUDGET_REPLY }));
    expect(err.reason).toBe("timeout");
    expect(err.detail).toBe("no reply within 400 ms");
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
