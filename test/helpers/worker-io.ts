// Talking NDJSON to worker modules in tests: in process through the SDK's serve loop (fast, the real
// framing and dispatch), or to a real `i worker MODULE` child process.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { PassThrough } from "node:stream";
import { MAX_LINE_BYTES } from "../../src/contract/protocol.ts";
import { MODULE_NAMES, type ModuleName } from "../../src/contract/registry.ts";
import { encodeLine, LineDecoder } from "../../src/lib/framing.ts";
import { generateManifest } from "../../src/manifest/generate.ts";
import { withSteering } from "../../src/manifest/steering.ts";
import type { WorkerModule } from "../../workers/sdk/module.ts";
import { serve } from "../../workers/sdk/serve.ts";
import { MAIN } from "./cli.ts";
import { ObservedHost } from "./observed-host.ts";

export type Reply = { id: number; data?: Record<string, unknown>; error?: string };

export interface WorkerClient {
  /** sends one request and waits for the reply with its id */
  request(event: string, data: Record<string, unknown>, workspace: string): Promise<Reply>;
  close(): Promise<void>;
  /** what the worker wrote to its log (stderr) */
  log(): string;
}

class Pending {
  private next = 1;
  private readonly waiting = new Map<number, (r: Reply) => void>();

  line(line: string): void {
    if (line.trim() === "") return;
    const reply = JSON.parse(line) as Reply;
    this.waiting.get(reply.id)?.(reply);
    this.waiting.delete(reply.id);
  }

  send(write: (s: string) => void, event: string, data: Record<string, unknown>, workspace: string) {
    const id = this.next++;
    return new Promise<Reply>((resolve) => {
      this.waiting.set(id, resolve);
      write(encodeLine({ id, event, workspace, data }));
    });
  }
}

/** Serves `modules` in this process over in-memory streams. */
export function inProcess(...modules: WorkerModule[]): WorkerClient {
  const input = new PassThrough();
  const pending = new Pending();
  const logs: string[] = [];
  const decoder = new LineDecoder(
    MAX_LINE_BYTES,
    (l) => pending.line(l),
    () => {},
  );
  const done = serve(modules, {
    input,
    write: (line) => decoder.push(new TextEncoder().encode(line)),
    log: (m) => logs.push(m),
  });
  return {
    request: (event, data, workspace) => pending.send((s) => input.write(s), event, data, workspace),
    close: async () => {
      input.end();
      await done;
    },
    log: () => logs.join("\n"),
  };
}

/** Starts `i worker <spec> [...extra]` from source as a real process with cwd = configDir. */
export function spawnWorker(
  spec: string,
  opts: { configDir: string; env?: Record<string, string>; extraArgs?: string[] },
): WorkerClient {
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    [MAIN, "worker", spec, ...(opts.extraArgs ?? [])],
    {
      cwd: opts.configDir,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        I_CONFIG_DIR: opts.configDir,
        ...opts.env,
      },
      stdio: ["pipe", "pipe", "pipe"],
    },
  );
  const pending = new Pending();
  let stderr = "";
  const decoder = new LineDecoder(
    MAX_LINE_BYTES,
    (l) => pending.line(l),
    () => {},
  );
  child.stdout.on("data", (c: Uint8Array) => decoder.push(c));
  child.stderr.on("data", (c: Buffer) => {
    stderr += c.toString("utf8");
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    request: (event, data, workspace) => {
      if (child.exitCode !== null) return Promise.reject(new Error(`worker exited: ${stderr}`));
      return Promise.race([
        pending.send((s) => child.stdin.write(s), event, data, workspace),
        exited.then(() => Promise.reject(new Error(`worker exited (code ${child.exitCode}): ${stderr}`))),
      ]);
    },
    close: async () => {
      child.stdin.end();
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    },
    log: () => stderr,
  };
}

/** The `result` of a tool reply; fails the test when the reply is an error or carries none. */
export function toolResultOf(reply: Reply): { content: string; is_error: boolean } {
  if (reply.error !== undefined) throw new Error(`worker error: ${reply.error}`);
  const result = reply.data?.result as { content: string; is_error: boolean } | undefined;
  if (!result) throw new Error("tool reply without a result");
  return result;
}

export interface HostOptions {
  configDir: string;
  workspace: string;
  dataDir: string;
  /** steering queue file: appended to the steering module's argv as the console does */
  queue?: string;
}

/**
 * A WorkerHost running the named built-in modules from source as real `i worker a,b` processes, exactly as
 * the generated manifest binds them (one shared process for built-ins, steering with `--queue PATH`).
 */
export function hostFor(modules: ModuleName[], opts: HostOptions): ObservedHost {
  const self = [process.execPath, MAIN];
  const generated = generateManifest({
    profile: "full",
    configDir: opts.configDir,
    plugins: { disabled: MODULE_NAMES.filter((m) => !modules.includes(m)) },
    bindings: {},
    self,
  });
  let manifest = generated;
  if (modules.includes("steering")) {
    if (opts.queue === undefined) throw new Error("hostFor: the steering module needs a queue");
    manifest = withSteering(generated, opts.queue, { self });
  }
  return new ObservedHost(manifest, {
    workspace: opts.workspace,
    configDir: opts.configDir,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", I_DATA_DIR: opts.dataDir },
  });
}
