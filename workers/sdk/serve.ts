// Serves worker modules over NDJSON on stdio (or any byte streams): the loop every worker runs.

import { readSync } from "node:fs";
import { describeIssue, errorMessage } from "../../src/contract/errors.ts";
import {
  type HookEvent,
  MAX_LINE_BYTES,
  PROTOCOL_VERSION,
  Request,
  TOOL_CANCEL_EVENT,
  ToolResult,
} from "../../src/contract/protocol.ts";
import { RESOURCE_EVENT } from "../../src/contract/runtime-resources.ts";
import {
  CANCEL_EVENT,
  PROMPT_EVENT,
  TOOLS_EVENT,
  TOOLS_WATCH_EVENT,
} from "../../src/contract/runtime-tools.ts";
import type { Piece } from "../../src/lib/encode-data.ts";
import { encodeLine, LineDecoder } from "../../src/lib/framing.ts";
import { isRecord } from "../../src/lib/is-record.ts";
import { startupMark } from "../../src/lib/startup-trace.ts";
import { writeAll } from "../../src/lib/write-all.ts";
import type { Data, RawHookHandler, WorkerContext, WorkerModule } from "./module.ts";
import { encodeReplyPieces, parseRequestLine, ReceivedArrays } from "./request-line.ts";

export interface ServeIO {
  input: NodeJS.ReadableStream;
  write(line: string): void;
  log(message: string): void;
}

export interface ServeOptions {
  /**
   * Called on stdio after a batch of requests, once every one read so far has been answered, just before
   * the loop waits for more: the moment a worker is idle (the built-in worker collects its garbage
   * there). Not before the first request: a worker's start is not delayed by it.
   */
  idle?: () => void;
}

function pick(modules: WorkerModule[], req: Request): WorkerModule | undefined {
  if (req.module) return modules.find((m) => m.name === req.module);
  if (modules.length === 1) return modules[0];
  if (req.event === "hello") return modules.find((m) => m.name === req.data.module);
  if (req.event === "tool")
    return (
      modules.find((m) => m.tools?.some((t) => t.decl.name === req.data.name)) ??
      modules.find((m) => m.runtimeTools)
    );
  if ([TOOLS_EVENT, TOOLS_WATCH_EVENT, CANCEL_EVENT, PROMPT_EVENT, RESOURCE_EVENT].includes(req.event))
    return modules.find((m) => m.runtimeTools);
  return modules.find((m) => Object.hasOwn(m.hooks, req.event));
}

/** Notices a module reported at hello, which has no field for them: sent with the next `tools` reply. */
const helloNotices: string[] = [];
/** Tool calls in flight, by call id: a `tool_cancel` aborts the one it names. */
const running = new Map<string, AbortController>();
/** Where progress lines go (stdout; a test's stream when serving in-process). */
let writeLine: (line: string) => void = (line) => writeAll(1, line);

/**
 * The user cancelled call `callId`. The core says so with `tool_cancel` for a registry tool and with
 * `cancel` for a tool declared at run time; both take this one path: the call's signal is aborted, and a
 * module serving run-time tools is told through its `cancel` too.
 */
function cancelCall(modules: WorkerModule[], callId: string): void {
  running.get(callId)?.abort();
  for (const m of modules) m.runtimeTools?.cancel?.(callId);
}

/** What every tool call is given: the signal its cancel aborts, and `progress`, streamed to the core. */
interface CallControl {
  signal: AbortSignal;
  progress: (progress: Record<string, unknown>) => void;
}

/**
 * Run the tool call of request `id`. Progress travels as `{id, progress}` lines while the request is in
 * flight, the one way for a registry tool and a tool declared at run time alike; none after a cancel.
 */
async function tracked<T>(id: number, callId: string, run: (call: CallControl) => Promise<T>): Promise<T> {
  const abort = new AbortController();
  const { signal } = abort;
  running.set(callId, abort);
  try {
    return await run({
      signal,
      progress: (progress) => {
        if (!signal.aborted) writeLine(encodeLine({ id, progress }));
      },
    });
  } finally {
    if (running.get(callId) === abort) running.delete(callId);
  }
}

async function handle(modules: WorkerModule[], req: Request, log: (m: string) => void): Promise<Data> {
  if (req.event === TOOL_CANCEL_EVENT || req.event === CANCEL_EVENT) {
    cancelCall(modules, String(req.data.call_id ?? ""));
    return req.data;
  }
  const mod = pick(modules, req);
  const context = (m: WorkerModule): WorkerContext => ({
    workspace: req.workspace,
    event: req.event,
    module: m.name,
    cwd: process.cwd(),
    log,
  });
  if (req.event === "hello") {
    if (!mod) throw new Error(`this worker does not serve module "${String(req.data.module)}"`);
    await mod.check?.(context(mod));
    const runtime = await mod.runtimeTools?.list(0, context(mod));
    helloNotices.push(...(runtime?.notices ?? []));
    startupMark(`hello answered: ${mod.name}`);
    return {
      ...req.data,
      protocol: PROTOCOL_VERSION,
      module: mod.name,
      hooks: Object.keys(mod.hooks),
      tools: (mod.tools ?? []).map((t) => t.decl),
      ...(mod.payloads ? { payloads: mod.payloads } : {}),
      ...(runtime ? { runtime_tools: runtime.tools } : {}),
      ...(mod.hookOptions ? { hook_options: mod.hookOptions(context(mod)) } : {}),
    };
  }
  if (!mod) return req.data;
  const ctx = context(mod);
  const runtime = mod.runtimeTools;
  if (runtime && req.event === TOOLS_EVENT) {
    const wait = typeof req.data.wait_ms === "number" ? req.data.wait_ms : 0;
    const list = await runtime.list(wait, ctx);
    const notices = [...helloNotices.splice(0), ...(list.notices ?? [])];
    const unchanged = list.revision === req.data.revision;
    return {
      ...req.data,
      revision: list.revision,
      ...(unchanged
        ? {}
        : {
            runtime_tools: list.tools,
            ...(list.prompts ? { prompts: list.prompts } : {}),
            ...(list.resources ? { resources: list.resources } : {}),
          }),
      ...(notices.length ? { notices } : {}),
      ...(list.status ? { status: list.status } : {}),
      // A watch is held open while other requests run: only a module served concurrently offers it.
      ...(runtime.watch && mod.concurrent && list.watch !== false ? { watch: true } : {}),
    };
  }
  if (runtime && req.event === TOOLS_WATCH_EVENT) {
    if (!runtime.watch || !mod.concurrent) return req.data;
    const revision = typeof req.data.revision === "number" ? req.data.revision : 0;
    const wait = typeof req.data.wait_ms === "number" ? req.data.wait_ms : 0;
    return { ...req.data, current: await runtime.watch(revision, wait) };
  }
  if (runtime && req.event === PROMPT_EVENT) {
    if (!runtime.prompt) throw new Error("this module offers no prompts");
    const args = (req.data.arguments ?? {}) as Record<string, string>;
    return { ...req.data, text: await runtime.prompt(String(req.data.name ?? ""), args) };
  }
  if (runtime && req.event === RESOURCE_EVENT) {
    if (!runtime.resource) throw new Error("this module offers no resources");
    return {
      ...req.data,
      contents: await runtime.resource(String(req.data.server ?? ""), String(req.data.uri ?? "")),
    };
  }
  if (req.event === "tool") {
    const tool = mod.tools?.find((t) => t.decl.name === req.data.name);
    const callId = String(req.data.call_id ?? "");
    if (!tool && runtime) {
      const result = await tracked(req.id, callId, (call) =>
        runtime.call(String(req.data.name), req.data.arguments, { ...ctx, callId, ...call }),
      );
      if (!ToolResult.safeParse(result).success)
        throw new Error(`tool "${String(req.data.name)}" returned an invalid result`);
      return { ...req.data, result };
    }
    if (!tool) throw new Error(`unknown tool "${String(req.data.name)}"`);
    const result = await tracked(req.id, callId, async (call) =>
      tool.run(req.data.arguments, {
        ...ctx,
        callId,
        ...call,
        ...(isRecord(req.data.context) ? { context: req.data.context } : {}),
      }),
    );
    // Caught here, the bug is reported as an error reply; sent on, it would get the worker evicted.
    if (!ToolResult.safeParse(result).success)
      throw new Error(`tool "${tool.decl.name}" returned an invalid result`);
    return { ...req.data, result };
  }
  const handler = Object.hasOwn(mod.hooks, req.event) ? mod.hooks[req.event as HookEvent] : undefined;
  // Events a module does not handle come back unchanged: every module hands back the data it received.
  if (!handler) return req.data;
  // The request is the core's data for this event: the handler's type names it, the host checks the reply.
  const run = handler as RawHookHandler;
  const out = await run(req.data, ctx);
  if (!isRecord(out)) throw new Error(`hook "${req.event}" of module "${mod.name}" did not return an object`);
  return out;
}

/**
 * The reply line for one request line, as pieces, or undefined when the line is not a request (logged,
 * dropped). With `bytes` (the line's UTF-8, valid until the reply is written) a history handed back
 * whole is written from the request's own bytes.
 */
async function answer(
  modules: WorkerModule[],
  line: string,
  log: (m: string) => void,
  bytes?: Uint8Array,
): Promise<Piece[] | undefined> {
  if (line.trim() === "") return undefined;
  let req: Request;
  const echo = new ReceivedArrays();
  try {
    const parsed = Request.safeParse(parseRequestLine(line, bytes, echo));
    if (!parsed.success) throw new Error(describeIssue("invalid request", parsed.error));
    req = parsed.data;
  } catch (err) {
    log(`protocol: dropping malformed request: ${(err as Error).message}`);
    return undefined;
  }
  try {
    return encodeReplyPieces(req.id, await handle(modules, req, log), echo, bytes !== undefined);
  } catch (err) {
    return [encodeLine({ id: req.id, error: errorMessage(err) })];
  }
}

/** The reply as one string, for writers that take text. */
async function answerText(modules: WorkerModule[], line: string, log: (m: string) => void) {
  return (await answer(modules, line, log))?.join("");
}

/** One write for a reply that is all text (the common, small case); a piece at a time around bytes. */
function writeReply(pieces: Piece[] | undefined): void {
  if (!pieces) return;
  if (pieces.every((p) => typeof p === "string")) writeAll(1, pieces.join(""));
  else for (const p of pieces) writeAll(1, p);
}

/** Serve over the given streams until input ends. Requests are answered as they complete, matched by id. */
function serveStreams(modules: WorkerModule[], io: ServeIO): Promise<void> {
  return new Promise((resolve) => {
    const onLine = (line: string) => {
      answerText(modules, line, io.log).then((reply) => {
        if (reply) io.write(reply);
      });
    };
    const decoder = new LineDecoder(MAX_LINE_BYTES, onLine, (fault) => {
      io.log(`protocol: input ${fault}; stopping`);
      resolve();
    });
    io.input.on("data", (chunk: Uint8Array) => decoder.push(chunk));
    io.input.on("end", () => resolve());
    io.input.on("error", () => resolve());
  });
}

/**
 * Serve on this process's stdin/stdout. A worker has nothing else to do between requests, so it reads
 * stdin with blocking reads and writes replies synchronously: that skips the event loop's wake-up on
 * every request (a hook round trip drops from ~100 µs to near the pipe's own latency). Requests are
 * handled one at a time; an async handler still runs the event loop while it is awaited. If stdin turns
 * out to be non-blocking, it falls back to event-driven reading.
 */
async function serveStdio(modules: WorkerModule[], idle: () => void): Promise<void> {
  const log = (m: string) => writeAll(2, `${m}\n`);
  // Lines with their bytes, which stay valid until the next fill(): all are answered before it.
  const lines: { line: string; bytes: Uint8Array }[] = [];
  let route = (line: string, bytes: Uint8Array) => {
    lines.push({ line, bytes });
  };
  let stop = false;
  const decoder = new LineDecoder(
    MAX_LINE_BYTES,
    (line, bytes) => route(line, bytes),
    (fault) => {
      log(`protocol: input ${fault}; stopping`);
      stop = true;
    },
  );
  for (;;) {
    const answered = lines.length > 0;
    for (let next = lines.shift(); next !== undefined; next = lines.shift())
      writeReply(await answer(modules, next.line, log, next.bytes));
    if (stop) return;
    if (answered) idle();
    let n: number;
    try {
      // Straight into the decoder's buffer, in large reads: a multi-megabyte history arrives in a few
      // syscalls, and is not copied on its way.
      n = decoder.fill((into, offset, length) => readSync(0, into, offset, length, null));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "EAGAIN" || code === "EWOULDBLOCK") {
        // Non-blocking stdin: hand over to the event loop with the same decoder (no bytes are lost).
        // Answered asynchronously from here on, so without the bytes (the next chunk may reuse them).
        route = (line) => {
          answerText(modules, line, log).then((reply) => {
            if (reply) writeAll(1, reply);
          });
        };
        return new Promise((resolve) => {
          process.stdin.on("data", (chunk: Uint8Array) => decoder.push(chunk));
          process.stdin.on("end", () => resolve());
          process.stdin.on("error", () => resolve());
        });
      }
      if (code === "EOF") return;
      throw err;
    }
    if (n === 0) return;
  }
}

/**
 * Serve until input ends: stdio by default, or any byte streams (tests serve in-process). With a module
 * that serves concurrently (its `concurrent` flag), requests are answered as they complete, several at
 * once (tools that run for minutes, like a child task; a cancel reaching a module while its tool call
 * runs), instead of one at a time with blocking reads. Then every module stops what it started.
 */
export async function serve(modules: WorkerModule[], io?: ServeIO, opts: ServeOptions = {}): Promise<void> {
  startupMark(`modules loaded: ${modules.map((m) => m.name).join(",")}`);
  if (io) {
    writeLine = io.write;
    await serveStreams(modules, io);
  } else if (!modules.some((m) => m.concurrent)) await serveStdio(modules, opts.idle ?? (() => {}));
  else
    await serveStreams(modules, {
      input: process.stdin,
      write: (line) => writeAll(1, line),
      log: (m) => writeAll(2, `${m}\n`),
    });
  // The core is gone (or done): whatever a module still runs for it stops now.
  await Promise.all(modules.map((m) => Promise.all([m.runtimeTools?.close?.(), m.close?.()])));
}
