// One child `i` session for a `task` call: started as its own process (`i task-child`) with the task on its
// stdin, which then stays open: the child stops when it ends, so a child never outlives this worker or the
// core, whatever kills them. Its --json events come back on stdout: the worker follows them for progress
// (its session, its current tool) and takes the final answer and token use from its `done` event.
import { type ChildProcess, spawn } from "node:child_process";
import type { ToolResult } from "../../src/contract/protocol.ts";
import type { ChildSpec, TaskProgress } from "../../src/contract/tasks.ts";
import type { Usage } from "../../src/contract/usage.ts";
import { engineModeForChild } from "../../src/lib/engine-mode-env.ts";
import { encodeLine, LineDecoder } from "../../src/lib/framing.ts";
import { killTree } from "../../src/lib/kill-tree.ts";

/** After SIGTERM, how long a child gets to stop its own tools and workers before SIGKILL. */
export const CHILD_STOP_GRACE_MS = 800;
const STDERR_KEEP = 4096;
const MAX_EVENT_LINE = 16 * 1024 * 1024;

interface Entry {
  pid: number;
  exited: Promise<void>;
  done: boolean;
}

const live = new Set<Entry>();

/**
 * `sig` to the child's process group (POSIX). On Windows every signal ends its whole tree at once
 * (taskkill /T /F), and only while it runs: after its exit the tree cannot be found and the pid may be
 * another program's (src/lib/kill-tree.ts).
 */
function signalGroup(child: Entry, sig: NodeJS.Signals): void {
  if (process.platform === "win32" && child.done) return;
  killTree(child.pid, sig);
}

/** Stop a child: SIGTERM (it cleans up its own processes), then SIGKILL of its group after the grace. */
async function stop(child: Entry): Promise<void> {
  signalGroup(child, "SIGTERM");
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<void>((r) => {
    timer = setTimeout(r, CHILD_STOP_GRACE_MS);
  });
  await Promise.race([child.exited, late]);
  clearTimeout(timer);
  signalGroup(child, "SIGKILL");
}

/** Stop every child still running (the worker's input ended). */
export async function stopAllChildren(): Promise<void> {
  closing = true;
  spare = undefined;
  await Promise.all([...live].map(stop));
}

/** This worker's environment without its engine options, plus the engine mode a child session starts in. */
function childEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !k.startsWith("BUN_JSC_")) env[k] = v;
  return { ...env, ...engineModeForChild(process.env) };
}

export interface ChildRun {
  spec: ChildSpec;
  signal?: AbortSignal;
  onProgress(p: TaskProgress): void;
  log(message: string): void;
}

interface Started {
  child: ChildProcess;
  entry: Entry;
  key: string;
}

/**
 * One child process started ahead, waiting for its task on stdin: after a first task, the next one skips
 * the runtime's start (most of a child's startup). It stops with this worker like any child.
 */
let spare: Started | undefined;
let closing = false;

function start(exec: readonly string[], cwd: string): Started {
  const [prog, ...args] = exec;
  const child = spawn(prog as string, [...args, "task-child"], {
    cwd,
    env: childEnv(),
    stdio: ["pipe", "pipe", "pipe"],
    detached: true,
    windowsHide: true,
  });
  let markExited!: () => void;
  const exited = new Promise<void>((r) => {
    markExited = r;
  });
  const entry: Entry = { pid: child.pid ?? -1, exited, done: false };
  if (child.pid !== undefined) live.add(entry);
  child.on("exit", () => {
    entry.done = true;
  });
  child.on("close", () => {
    entry.done = true;
    live.delete(entry);
    markExited();
  });
  child.on("error", () => {});
  child.stdin?.on("error", () => {});
  return { child, entry, key: JSON.stringify([exec, cwd]) };
}

/** A started child for this exec and workspace: the spare when it is still waiting, else a new one. */
function take(exec: readonly string[], cwd: string): Started {
  const key = JSON.stringify([exec, cwd]);
  const s = spare;
  spare = undefined;
  if (s && s.key === key && s.child.exitCode === null && s.child.signalCode === null) return s;
  if (s) void stop(s.entry);
  return start(exec, cwd);
}

export function runChild(run: ChildRun): Promise<ToolResult> {
  const { spec } = run;
  const progress: TaskProgress = { agent: spec.agent.name, description: spec.description };
  return new Promise((resolve) => {
    const { child, entry } = take(spec.context.exec, spec.context.workspace);
    // The next task starts from a waiting process.
    setImmediate(() => {
      if (!spare && !closing) spare = start(spec.context.exec, spec.context.workspace);
    });
    let done: { text: string; usage?: Usage } | undefined;
    let failure: string | undefined;
    let stderr = "";
    const decoder = new LineDecoder(
      MAX_EVENT_LINE,
      (line) => {
        let ev: Record<string, unknown>;
        try {
          ev = JSON.parse(line);
        } catch {
          return;
        }
        if (ev.type === "session" && typeof ev.id === "string") progress.session_id = ev.id;
        else if (ev.type === "tool_call" && typeof ev.name === "string") progress.tool = ev.name;
        else if (ev.type === "tool_result") delete progress.tool;
        else if (ev.type === "error" && typeof ev.message === "string") failure = ev.message;
        else if (ev.type === "done")
          done = { text: String(ev.text ?? ""), ...(ev.usage ? { usage: ev.usage as Usage } : {}) };
        else return;
        run.onProgress({ ...progress });
      },
      () => {},
    );
    child.stdout?.on("data", (c: Uint8Array) => decoder.push(c));
    child.stderr?.on("data", (c: Buffer) => {
      stderr = (stderr + c.toString("utf8")).slice(-STDERR_KEEP);
    });
    child.stdin?.write(encodeLine(spec));
    const onAbort = () => void stop(entry);
    run.signal?.addEventListener("abort", onAbort, { once: true });
    let settled = false;
    const finish = (result: ToolResult) => {
      if (settled) return;
      settled = true;
      run.signal?.removeEventListener("abort", onAbort);
      resolve(result);
    };
    child.on("error", (err) =>
      finish({ content: `task: cannot start the child session: ${err.message}`, is_error: true }),
    );
    child.on("close", (code, sig) => {
      // Whatever the child left in its group goes with it.
      if (child.pid !== undefined) signalGroup(entry, "SIGKILL");
      const said = stderr.trim().split("\n").filter(Boolean).at(-1)?.replace(/^i: /, "");
      const where = progress.session_id ? ` (its session: ${progress.session_id})` : "";
      if (run.signal?.aborted) return finish({ content: "task cancelled by the user", is_error: true });
      if (done && code === 0) {
        const text = done.text.trim() === "" ? "(the agent finished without a final answer)" : done.text;
        return finish({ content: text, is_error: false, ...(done.usage ? { usage: done.usage } : {}) });
      }
      const how = sig ? `was killed by ${sig}` : `exited with code ${code}`;
      const why = failure ?? said ?? how;
      run.log(`task ${spec.call_id}: child ${how}: ${why}`);
      finish({
        content: `task failed: the ${spec.agent.name} agent stopped without an answer: ${why}${where}`,
        is_error: true,
        ...(done?.usage ? { usage: done.usage } : {}),
      });
    });
  });
}
