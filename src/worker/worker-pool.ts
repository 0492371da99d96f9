// The processes behind the host: one per group of the manifest, started on first need, handshaken once
// per module it serves, and forgotten the moment it dies (the next request starts a fresh one). What a
// module says at hello is handed to the host through `onHello`; routing requests is the host's job.
import { join } from "node:path";
import { ensurePrivateDir } from "../config/paths.ts";
import { HelloReplyData, PROTOCOL_VERSION } from "../contract/protocol.ts";
import type { ModuleName } from "../contract/registry.ts";
import { log, logOn } from "../lib/log.ts";
import { startupMark } from "../lib/startup-trace.ts";
import { BUILTIN_WORKER_ENV } from "./env.ts";
import { LogSink } from "./log-sink.ts";
import type { Group } from "./manifest-groups.ts";
import { WorkerProcess } from "./process.ts";
import { checkHello, rephrase } from "./reply-checks.ts";

export interface WorkerPoolOptions {
  workspace: string;
  /** config_dir as the manifest names it: built-in workers run there */
  configDir: string;
  /** the allow-listed environment every worker gets */
  env: Record<string, string>;
  deadlineMs: number;
  helloDeadlineMs: number | undefined;
  maxLineBytes: number | undefined;
  logDir: string;
  observer: ((proc: WorkerProcess, modules: readonly ModuleName[]) => void) | undefined;
  moduleEnv: Partial<Record<ModuleName, Record<string, string>>> | undefined;
  /** a module of a fresh process passed its hello, which said this */
  onHello: (module: ModuleName, hello: HelloReplyData) => void;
}

interface Slot {
  proc: WorkerProcess;
  /** resolves once every module of the process has passed its handshake */
  ready: Promise<WorkerProcess>;
  ok: boolean;
}

/** How long `close()` lets a worker finish after its stdin closes before it is killed. */
const CLOSE_GRACE_MS = 300;

export class WorkerPool {
  private readonly slots = new Map<string, Slot>();
  private closedFlag = false;

  constructor(private readonly opts: WorkerPoolOptions) {}

  get closed(): boolean {
    return this.closedFlag;
  }

  /** The process serving `group` when it has passed its handshake and is alive (the hot path). */
  readyProcess(group: Group): WorkerProcess | undefined {
    const slot = this.slots.get(group.key);
    return slot?.ok && slot.proc.alive ? slot.proc : undefined;
  }

  /** The process serving `group`, started and handshaken first when none runs. */
  ensure(group: Group, forModule: ModuleName, forEvent: string): Promise<WorkerProcess> {
    if (this.closedFlag) return Promise.reject(new Error("the worker host is closed"));
    const existing = this.slots.get(group.key);
    if (existing?.proc.alive)
      return existing.ready.catch((err) => Promise.reject(rephrase(err, forModule, forEvent)));
    startupMark(`worker spawn: ${group.modules.join(",")}`);
    const t0 = logOn() ? performance.now() : 0;
    const proc = this.spawn(group);
    const slot: Slot = {
      proc,
      ok: false,
      ready: this.handshake(group, proc).then(() => {
        startupMark(`worker ready: ${group.modules.join(",")}`);
        if (logOn())
          log(
            "debug",
            "worker",
            `${group.modules.join(",")} started, ready in ${(performance.now() - t0).toFixed(1)} ms (for ${forEvent})`,
          );
        slot.ok = true;
        return proc;
      }),
    };
    this.slots.set(group.key, slot);
    if (!proc.alive) this.slots.delete(group.key);
    return slot.ready.catch((err) => Promise.reject(rephrase(err, forModule, forEvent)));
  }

  /**
   * Let `group`'s process go while it serves nothing (a request still waiting keeps it); the next
   * request for the group starts a fresh one, as after any exit.
   */
  retire(group: Group): void {
    const slot = this.slots.get(group.key);
    if (!slot?.ok || slot.proc.busy) return;
    this.slots.delete(group.key);
    void slot.proc.close(CLOSE_GRACE_MS);
  }

  async close(): Promise<void> {
    this.closedFlag = true;
    const procs = [...this.slots.values()].map((s) => s.proc);
    this.slots.clear();
    await Promise.all(procs.map((p) => p.close(CLOSE_GRACE_MS)));
  }

  private spawn(group: Group): WorkerProcess {
    const o = this.opts;
    const logName = group.modules.length === 1 ? (group.modules[0] as string) : "builtin";
    // Built-in workers run in config_dir, which `i` owns; on a first run without `i init` it does not
    // exist yet. A bound module's own cwd is the user's to create: its absence stays an error.
    if (group.builtin && group.cwd === o.configDir) ensurePrivateDir(group.cwd);
    // `let` so the onDead callback may run during construction (a spawn that fails at once) without a TDZ error.
    let proc: WorkerProcess | undefined;
    proc = new WorkerProcess({
      exec: group.exec,
      cwd: group.cwd,
      env: {
        ...(group.builtin ? { ...o.env, ...BUILTIN_WORKER_ENV } : o.env),
        ...(group.modules.length === 1 ? o.moduleEnv?.[group.modules[0] as ModuleName] : undefined),
      },
      workspace: o.workspace,
      deadlineMs: o.deadlineMs,
      ...(o.helloDeadlineMs === undefined ? {} : { helloDeadlineMs: o.helloDeadlineMs }),
      maxLineBytes: o.maxLineBytes,
      log: new LogSink(join(o.logDir, `${logName}.log`)),
      onDead: () => {
        const slot = this.slots.get(group.key);
        if (slot && slot.proc === proc) this.slots.delete(group.key);
      },
    });
    o.observer?.(proc, group.modules);
    return proc;
  }

  /** One hello per module the process serves, all at once; the first refusal evicts the whole process. */
  private async handshake(group: Group, proc: WorkerProcess): Promise<void> {
    await Promise.all(
      group.modules.map((module) =>
        this.hello(group, proc, module).catch((err: unknown) => {
          proc.fail("handshake", `module "${module}" of this process failed its handshake`);
          throw err;
        }),
      ),
    );
  }

  private async hello(group: Group, proc: WorkerProcess, module: ModuleName): Promise<void> {
    const data = { protocol: PROTOCOL_VERSION, module };
    const reply = await proc.request(module, "hello", data, group.builtin, (d) => checkHello(module, d));
    this.opts.onHello(module, HelloReplyData.parse(reply));
  }
}
