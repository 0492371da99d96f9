// A WorkerHost that records what it starts through the host's `observer` option, so tests can prove
// respawns, shared processes and request counts without the production class carrying test-only methods.
import type { Manifest } from "../../src/contract/manifest.ts";
import type { ModuleName } from "../../src/contract/registry.ts";
import { WorkerHost, type WorkerHostOptions } from "../../src/worker/host.ts";
import type { WorkerProcess } from "../../src/worker/process.ts";

export class ObservedHost extends WorkerHost {
  private readonly latest = new Map<ModuleName, WorkerProcess>();
  private started = 0;

  constructor(manifest: Manifest, opts: Omit<WorkerHostOptions, "observer">) {
    const seen: { host?: ObservedHost } = {};
    super(manifest, {
      ...opts,
      observer: (proc, modules) => {
        const self = seen.host as ObservedHost;
        self.started++;
        for (const m of modules) self.latest.set(m, proc);
      },
    });
    seen.host = this;
  }

  /** the per-request deadline in force (the option, or the protocol's default) */
  get deadline(): number {
    return (this as unknown as { deadlineMs: number }).deadlineMs;
  }

  /** processes started so far */
  get spawned(): number {
    return this.started;
  }

  /** The pid of the process currently serving `module`, if one is running. */
  pidOf(module: ModuleName): number | undefined {
    const proc = this.latest.get(module);
    return proc?.alive ? proc.pid : undefined;
  }

  /** The pid of the last process started for `module`, running or not. */
  lastPidOf(module: ModuleName): number | undefined {
    return this.latest.get(module)?.pid;
  }

  /** Requests written to the process serving `module` (hello included); 0 once it is gone. */
  requestsOf(module: ModuleName): number {
    const proc = this.latest.get(module);
    return proc?.alive ? proc.requests : 0;
  }
}
