// Each worker runs in its own process group: eviction and close kill the whole group, so a helper the
// worker forked, or the real worker behind a shell wrapper that did not `exec` it, never outlives it;
// and when `i` itself exits every live group goes with it.
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Binding } from "../../src/contract/config.ts";
import { WorkerError } from "../../src/worker/host.ts";
import { ObservedHost } from "../helpers/observed-host.ts";
import { BUN, MISBEHAVE, manifestOf, misbehaving, ROOT, TempDirs } from "./helpers.ts";

const temp = new TempDirs();
const hosts: ObservedHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
});
afterAll(() => temp.cleanup());

/** A host for the budget module bound to `binding(count)`, where count is the fixture's pid-log file. */
function budgetHost(binding: (count: string) => Binding, deadlineMs?: number) {
  const dir = temp.make();
  const count = join(dir, "count.txt");
  const h = new ObservedHost(manifestOf(["budget"], dir, { budget: binding(count) }), {
    workspace: dir,
    configDir: dir,
    ...(deadlineMs === undefined ? {} : { deadlineMs }),
  });
  hosts.push(h);
  return { h, count };
}

/** Running, as opposed to gone or a zombie nobody has reaped yet (pid 1 in a container may not reap). */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return !/^\d+ \(.*\) [ZX]/.test(stat);
  } catch {
    return false;
  }
}

async function gone(pid: number, ms = 3000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (!running(pid)) return true;
    await Bun.sleep(20);
  }
  return false;
}

function pidsIn(file: string, event: string): number[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .map((l) => l.split(" "))
    .filter((p) => p[1] === event)
    .map((p) => Number(p[0]));
}

/**
 * A script standing in for i: it starts a host whose budget worker forks a helper (pids land in
 * `count`), then runs `tail`. Returns the script's path and the count file.
 */
async function hostScript(name: string, tail: string): Promise<{ script: string; count: string }> {
  const dir = temp.make();
  const count = join(dir, "count.txt");
  const script = join(dir, name);
  const src = (p: string) => JSON.stringify(join(ROOT, p));
  await Bun.write(
    script,
    `import { WorkerHost } from ${src("src/worker/host.ts")};
import { manifestOf, misbehaving } from ${src("test/worker/helpers.ts")};
const dir = ${JSON.stringify(dir)};
const h = new WorkerHost(manifestOf(["budget"], dir, { budget: misbehaving("budget", "fork-helper", ${JSON.stringify(count)}) }), { workspace: dir, configDir: dir });
await h.start();
${tail}
`,
  );
  return { script, count };
}

async function evicted(h: ObservedHost): Promise<WorkerError> {
  try {
    await h.runHook("budget", { n: 1 });
  } catch (err) {
    if (err instanceof WorkerError) return err;
    throw err;
  }
  throw new Error("expected an eviction");
}

describe.skipIf(process.platform === "win32")("worker process groups", () => {
  test("a helper the worker forked is gone after eviction", async () => {
    const { h, count } = budgetHost((c) => misbehaving("budget", "fork-helper", c), 1500);
    await h.start();
    const worker = h.pidOf("budget") as number;
    const [helper] = pidsIn(count, "helper");
    expect(helper && running(helper)).toBe(true);
    expect((await evicted(h)).reason).toBe("timeout");
    expect(await gone(worker)).toBe(true);
    expect(await gone(helper as number)).toBe(true);
  });

  test("a shell wrapper without exec around a hung worker: wrapper and worker both gone", async () => {
    const { h, count } = budgetHost((c) => {
      const inner = [BUN, MISBEHAVE, "--module", "budget", "--mode", "stuck", "--count", c].join(" ");
      // The trailing command keeps sh from exec'ing the worker: sh stays the parent, the worker its child.
      return { exec: ["/bin/sh", "-c", `${inner}; echo wrapper-done >&2`] };
    }, 2000);
    await h.start();
    const sh = h.pidOf("budget") as number;
    const [realWorker] = pidsIn(count, "hello");
    expect(realWorker).not.toBe(sh);
    expect(running(realWorker as number)).toBe(true);
    expect((await evicted(h)).reason).toBe("timeout");
    expect(await gone(sh)).toBe(true);
    expect(await gone(realWorker as number)).toBe(true);
  });

  test("close() takes the helper with it", async () => {
    const { h, count } = budgetHost((c) => misbehaving("budget", "fork-helper", c));
    await h.start();
    const [helper] = pidsIn(count, "helper");
    await h.close();
    expect(await gone(helper as number)).toBe(true);
  });

  for (const sig of ["SIGINT", "SIGTERM"] as const) {
    test(`a ${sig} nobody handles ends i and every worker group with it`, async () => {
      const { script, count } = await hostScript(
        "wait.ts",
        'process.stdout.write("ready\\n");\nsetInterval(() => {}, 1000);',
      );
      const child = Bun.spawn([BUN, script], { stdout: "pipe" });
      const reader = child.stdout.getReader();
      await reader.read();
      child.kill(sig);
      await child.exited;
      expect(child.signalCode).toBe(sig);
      const [helper] = pidsIn(count, "helper");
      expect(await gone(helper as number)).toBe(true);
      expect(await gone(pidsIn(count, "hello")[0] as number)).toBe(true);
    });
  }

  test("when i exits without closing its host, every worker group dies with it", async () => {
    const { script, count } = await hostScript("exit-early.ts", "process.exit(130);");
    const r = spawnSync(BUN, [script], { encoding: "utf8", timeout: 20_000 });
    expect(r.status).toBe(130);
    const [helper] = pidsIn(count, "helper");
    const [worker] = pidsIn(count, "hello");
    expect(helper).toBeGreaterThan(0);
    expect(await gone(helper as number)).toBe(true);
    expect(await gone(worker as number)).toBe(true);
  });
});
