// One running worker executable: spawn, NDJSON framing, requests matched by id under a deadline, and
// eviction. Any protocol fault kills the process (SIGKILL), waits until it is reaped, then rejects every
// request in flight with a WorkerError. Nothing is ever re-sent: the host spawns a fresh process for the
// *next* request, so a half-done side effect in a worker cannot happen twice.

import { type ChildProcess, spawn } from "node:child_process";
import { statSync } from "node:fs";
import { describeIssue } from "../contract/errors.ts";
import { MAX_LINE_BYTES, ProgressMessage, plainOkReply, Reply } from "../contract/protocol.ts";
import { LineDecoder } from "../lib/framing.ts";
import { killGroup, trackGroup, untrackGroup } from "../runtime/process-group.ts";
import { parseEchoReply } from "./decode-reply.ts";
import { ECHO_MIN_BYTES, encodeRequestBytes, type SentArray } from "./encode-request.ts";
import { WorkerError, type WorkerFailure } from "./errors.ts";
import type { LogSink } from "./log-sink.ts";

export type Data = Record<string, unknown>;

export interface Fault {
  reason: WorkerFailure;
  detail: string;
}

/** A check of one reply's data beyond the protocol shape: why it is unacceptable, or undefined. */
export type ReplyCheck = (data: Data) => Fault | undefined;

export interface ProcessOptions {
  exec: readonly string[];
  cwd: string;
  env: Record<string, string>;
  workspace: string;
  deadlineMs: number;
  /** deadline of the `hello` handshake, which also covers starting the process; default deadlineMs */
  helloDeadlineMs?: number;
  log: LogSink;
  /** called once, synchronously, the moment the process stops being usable (so the next request respawns) */
  onDead: () => void;
  maxLineBytes?: number;
}

interface Pending {
  module: string;
  event: string;
  resolve: (data: Data) => void;
  reject: (err: WorkerError) => void;
  timer: ReturnType<typeof setTimeout>;
  check: ReplyCheck | undefined;
  /** large message arrays in the request, which the reply usually echoes */
  sent: SentArray[];
  onProgress: ((progress: Data) => void) | undefined;
}

export interface RequestOptions {
  /** this request's own deadline (a hook or tool declared a longer one); default the process's */
  deadlineMs?: number;
  /** progress messages the worker sends for this request while it runs */
  onProgress?: (progress: Data) => void;
}

/** How long to wait for a killed process to be reaped before giving up on it (it may be stuck in the kernel). */
const REAP_WAIT_MS = 3000;

function preview(line: string): string {
  const flat = line.replace(/\s+/g, " ").trim();
  return JSON.stringify(flat.length > 80 ? `${flat.slice(0, 80)}…` : flat);
}

function dirProblem(cwd: string): string | undefined {
  try {
    if (statSync(cwd).isDirectory()) return undefined;
    return `working directory ${cwd} is not a directory`;
  } catch {
    return `working directory ${cwd} does not exist`;
  }
}

export class WorkerProcess {
  readonly pid: number | undefined;
  /** requests written to this process, hello included */
  requests = 0;
  private child: ChildProcess | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private fault: Fault | undefined;
  /** the request whose reply (or silence) caused the fault, when known */
  private culprit: number | undefined;
  private exitStatus: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private readonly exited: Promise<void>;
  private markExited!: () => void;
  private readonly decoder: LineDecoder;

  constructor(private readonly opts: ProcessOptions) {
    this.exited = new Promise((resolve) => {
      this.markExited = resolve;
    });
    this.decoder = new LineDecoder(
      opts.maxLineBytes ?? MAX_LINE_BYTES,
      (line) => this.onLine(line),
      (f) =>
        f === "oversize"
          ? this.fail("oversize", `sent a line longer than ${opts.maxLineBytes ?? MAX_LINE_BYTES} bytes`)
          : this.fail("malformed", "sent a line that is not valid UTF-8"),
      (bytes) => this.onEcho(bytes),
    );
    const [prog, ...args] = opts.exec;
    const problem = dirProblem(opts.cwd);
    let child: ChildProcess | undefined;
    if (!problem && prog) {
      try {
        child = spawn(prog, args, {
          cwd: opts.cwd,
          env: opts.env,
          stdio: ["pipe", "pipe", "pipe"],
          windowsHide: true,
          // Its own process group: eviction, exit and Ctrl-C stop everything it started, wrappers included.
          detached: true,
        });
      } catch (err) {
        this.startFailed(`cannot start ${prog}: ${(err as Error).message}`);
      }
    } else this.startFailed(problem ?? "empty exec");
    this.pid = child?.pid;
    if (!child) return;
    this.child = child;
    trackGroup(child);
    if (child.pid !== undefined)
      opts.log.note(`started pid ${child.pid}: ${JSON.stringify(opts.exec)} in ${opts.cwd}`);
    child.stdout?.on("data", (chunk: Uint8Array) => this.decoder.push(chunk));
    child.stderr?.on("data", (chunk: Uint8Array) => opts.log.write(chunk));
    // Writes to a process that just died fail with EPIPE; the exit path reports that, not the stream.
    child.stdin?.on("error", () => {});
    child.on("error", (err) => {
      if (child.pid === undefined) this.startFailed(`cannot start ${prog}: ${err.message}`);
    });
    child.on("exit", (code, signal) => {
      this.exitStatus = { code, signal };
      // Whatever it left running in its group (a helper, a wrapped program) goes with it.
      killGroup(child, "SIGKILL");
      untrackGroup(child);
      this.markExited();
      // Output may still be buffered in the pipe: wait for it ("close"), unless a grandchild holds it open.
      if (!this.fault) setTimeout(() => this.onEnded(), 200).unref?.();
    });
    child.on("close", () => this.onEnded());
  }

  /** True while the process can take requests. */
  get alive(): boolean {
    return this.fault === undefined;
  }

  /** whether a request of the core's is waiting for its reply */
  get busy(): boolean {
    return this.pending.size > 0;
  }

  /** Send one request; resolves with the reply's data, rejects with a WorkerError. */
  request(
    module: string,
    event: string,
    data: Data,
    moduleField: boolean,
    check?: ReplyCheck,
    opts: RequestOptions = {},
  ): Promise<Data> {
    const { deadlineMs, onProgress } = opts;
    if (this.fault)
      return Promise.reject(new WorkerError(module, event, this.fault.reason, this.fault.detail));
    const id = this.nextId++;
    const sent: SentArray[] = [];
    const fields = { id, event, workspace: this.opts.workspace, data };
    const line = encodeRequestBytes(moduleField ? { ...fields, module } : fields, sent);
    const max = this.opts.maxLineBytes ?? MAX_LINE_BYTES;
    if (line.length - 1 > max) {
      const detail = `request of ${line.length - 1} bytes is over the ${max}-byte line limit; not sent`;
      return Promise.reject(new WorkerError(module, event, "oversize", detail));
    }
    return new Promise<Data>((resolve, reject) => {
      const ms =
        deadlineMs ??
        (event === "hello" ? (this.opts.helloDeadlineMs ?? this.opts.deadlineMs) : this.opts.deadlineMs);
      const timer = setTimeout(() => this.fail("timeout", `no reply within ${ms} ms`, id), ms);
      this.pending.set(id, { module, event, resolve, reject, timer, check, sent, onProgress });
      this.requests++;
      this.child?.stdin?.write(line);
    });
  }

  /**
   * Stop politely: close stdin (a worker's signal to finish), give it `graceMs`, then SIGKILL. Resolves once
   * the process is reaped. Requests still in flight fail.
   */
  async close(graceMs: number): Promise<void> {
    if (!this.fault) {
      this.markDead({
        reason: "exit",
        detail: "the worker host was closed while this request was in flight",
      });
      this.child?.stdin?.end();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const graceful = await Promise.race([
        this.exited.then(() => true),
        new Promise<boolean>((r) => {
          timer = setTimeout(() => r(false), graceMs);
        }),
      ]);
      clearTimeout(timer);
      if (!graceful) this.kill();
      await this.reaped();
      this.rejectAll();
      this.opts.log.close();
    }
    await this.reaped();
  }

  /** Evict after a fault: kill, reap, then fail every request in flight. Idempotent. */
  fail(reason: WorkerFailure, detail: string, culpritId?: number): void {
    if (this.fault) return;
    this.markDead({ reason, detail }, culpritId);
    this.opts.log.note(`evicted (${reason}): ${detail}`);
    this.kill();
    void this.reaped().then(() => {
      this.rejectAll();
      this.opts.log.close();
    });
  }

  private markDead(fault: Fault, culpritId?: number): void {
    this.fault = fault;
    this.culprit = culpritId;
    this.decoder.close();
    this.opts.onDead();
  }

  private kill(): void {
    if (this.child && this.exitStatus === undefined) killGroup(this.child, "SIGKILL");
  }

  private async reaped(): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([this.exited, new Promise<void>((r) => (timer = setTimeout(r, REAP_WAIT_MS)))]);
    clearTimeout(timer);
    this.child?.stdout?.destroy();
    this.child?.stderr?.destroy();
    this.child?.stdin?.destroy();
  }

  private rejectAll(): void {
    const fault = this.fault as Fault;
    // The culprit first, so whoever awaits several of these requests sees the real cause first.
    const entries = [...this.pending].sort(
      ([a], [b]) => Number(b === this.culprit) - Number(a === this.culprit),
    );
    for (const [id, p] of entries) {
      clearTimeout(p.timer);
      const detail =
        id === this.culprit || this.culprit === undefined
          ? fault.detail
          : `its worker process was stopped while this request was in flight (${fault.detail})`;
      p.reject(new WorkerError(p.module, p.event, fault.reason, detail));
    }
    this.pending.clear();
  }

  private startFailed(detail: string): void {
    this.markExited();
    this.fail("spawn", detail);
  }

  /** The process ended on its own (its output closed, or it exited): a crash unless it exited cleanly. */
  private onEnded(): void {
    if (this.fault) return;
    const s = this.exitStatus;
    const said = this.opts.log.lastLine();
    const tail = said ? `; its last output: ${said}` : "";
    if (!s) this.fail("crash", `closed its output${tail}`);
    else if (s.signal) this.fail("crash", `was killed by ${s.signal}${tail}`);
    else if (s.code !== 0) this.fail("crash", `exited with code ${s.code}${tail}`);
    else this.fail("exit", `exited (code 0) instead of serving requests${tail}`);
  }

  /** A progress message: handed to its request's listener (one for no request in flight is dropped). */
  private onProgress(msg: unknown): boolean {
    if (typeof msg !== "object" || msg === null || !("progress" in msg) || "data" in msg || "error" in msg)
      return false;
    const parsed = ProgressMessage.safeParse(msg);
    if (!parsed.success) return false;
    try {
      this.pending.get(parsed.data.id)?.onProgress?.(parsed.data.progress);
    } catch {
      // a display's failure is no fault of the worker
    }
    return true;
  }

  /** The large arrays of every request in flight (usually one): any of them may come back in a reply. */
  private sentInFlight(): SentArray[] {
    const all: SentArray[] = [];
    for (const p of this.pending.values()) all.push(...p.sent);
    return all;
  }

  /** A large reply that echoes a sent history, taken without decoding it whole; false to parse it plainly. */
  private onEcho(bytes: Uint8Array): boolean {
    if (bytes.length < ECHO_MIN_BYTES || this.pending.size === 0) return false;
    const msg = parseEchoReply(bytes, this.sentInFlight());
    if (msg === undefined) return false;
    this.onMessage(msg);
    return true;
  }

  private onLine(line: string): void {
    if (line.trim() === "") return;
    let msg: unknown;
    try {
      msg = JSON.parse(line);
    } catch {
      this.fail("malformed", `sent a line that is not JSON: ${preview(line)}`);
      return;
    }
    this.onMessage(msg);
  }

  private onMessage(msg: unknown): void {
    if (this.onProgress(msg)) return;
    const plain = plainOkReply(msg);
    const parsed = plain ? { success: true as const, data: plain } : Reply.safeParse(msg);
    const rawId = (msg as { id?: unknown } | null)?.id;
    const knownId = typeof rawId === "number" && this.pending.has(rawId) ? rawId : undefined;
    if (!parsed.success) {
      this.fail("malformed", describeIssue("sent an invalid reply", parsed.error), knownId);
      return;
    }
    const reply = parsed.data;
    const p = this.pending.get(reply.id);
    if (!p) {
      this.fail("wrong_id", `replied with id ${reply.id}, which matches no request in flight`);
      return;
    }
    if ("error" in reply) {
      this.pending.delete(reply.id);
      clearTimeout(p.timer);
      p.reject(
        new WorkerError(
          p.module,
          p.event,
          "error_reply",
          `the worker answered with an error: ${reply.error}`,
        ),
      );
      return;
    }
    const bad = p.check?.(reply.data);
    if (bad) {
      this.fail(bad.reason, bad.detail, reply.id);
      return;
    }
    this.pending.delete(reply.id);
    clearTimeout(p.timer);
    p.resolve(reply.data);
  }
}
