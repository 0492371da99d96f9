// `i task-child`: one sub-agent task, started by the agents module. The task arrives as the first line of
// stdin; stdin then stays open, and its end (the worker or the parent gone, however they died) stops the
// child at once: the turn is cancelled, its tools and workers are stopped, and it exits. Its API key
// comes from the parent's credential broker, presented with a one-time ticket, never from its
// environment. Every event goes to stdout as NDJSON, as with `i -p --json`.
import { configDir } from "../config/paths.ts";
import { errorMessage, UserError } from "../contract/errors.ts";
import type { AgentEvent } from "../contract/events.ts";
import { ChildSpec } from "../contract/tasks.ts";
import type { Usage } from "../contract/usage.ts";
import { type Price, requestCost } from "../lib/request-cost.ts";
import { startupMark } from "../lib/startup-trace.ts";
import { fetchCredentials } from "../runtime/credential-broker.ts";
import { holdCredentials } from "../runtime/credential-handoff.ts";
import { inertJson } from "../terminal/sanitize.ts";
import { dropPrestarted, type Prestarted, prestartWorkers } from "./child-prestart.ts";

/** The first line of stdin, and a promise that settles when stdin ends. */
function readSpecLine(): Promise<{ line: string; ended: Promise<void> }> {
  return new Promise((resolve, reject) => {
    let buf = "";
    let got = false;
    let endedResolve!: () => void;
    const ended = new Promise<void>((r) => {
      endedResolve = r;
    });
    process.stdin.on("data", (c: Buffer) => {
      if (got) return;
      buf += c.toString("utf8");
      const nl = buf.indexOf("\n");
      if (nl === -1) return;
      got = true;
      resolve({ line: buf.slice(0, nl), ended });
    });
    process.stdin.on("end", () => {
      endedResolve();
      if (!got) reject(new NoTask());
    });
    process.stdin.on("error", () => endedResolve());
  });
}

/** stdin ended before a task came: a child started ahead that was never needed (or a person typing). */
class NoTask extends Error {}

export async function runChildSession(): Promise<number> {
  // The first request's workers start first, then the rest of the setup code loads while they start
  // and the task (and its API key) arrive: each waits on something else, none on the other.
  const prestarted = prestartWorkers();
  startupMark("workers started");
  const spec$ = readSpecLine();
  const setup$ = Promise.all([import("./setup.ts"), import("../tools/sandbox.ts")]);
  setup$.catch(() => {});
  try {
    return await runTask(await spec$, setup$, prestarted);
  } catch (err) {
    // Whatever stopped the task before its setup took them, the started workers stop with it.
    await dropPrestarted(prestarted);
    if (!(err instanceof NoTask)) throw err;
    if (process.stdin.isTTY !== true) return 0;
    throw new UserError("i task-child: no task on stdin (this command is started by the task tool)");
  }
}

async function runTask(
  { line, ended }: Awaited<ReturnType<typeof readSpecLine>>,
  setup$: Promise<[typeof import("./setup.ts"), typeof import("../tools/sandbox.ts")]>,
  prestarted: Prestarted | undefined,
): Promise<number> {
  let spec: ChildSpec;
  try {
    spec = ChildSpec.parse(JSON.parse(line));
  } catch (err) {
    throw new UserError(`i task-child: not a task: ${errorMessage(err)}`);
  }
  const { context } = spec;
  const credentials$ = context.credential
    ? fetchCredentials(context.credential.socket, context.credential.ticket)
    : undefined;
  credentials$?.catch(() => {});
  const [{ setupAgent }, { parseSandbox }] = await setup$;
  startupMark("setup loaded");
  if (credentials$) holdCredentials(await credentials$);
  let session: { addUsage(i: number, o: number, c?: number): void } | undefined;
  let price: () => Price = () => undefined;
  const emit = (ev: AgentEvent) => {
    // The task's tokens and cost go into its own meta.json, where the parent's run totals read them.
    const u = ev.type === "assistant" ? (ev.message.meta?.usage as Usage | undefined) : undefined;
    if (u && typeof u.input_tokens === "number")
      session?.addUsage(u.input_tokens, u.output_tokens ?? 0, requestCost(u, price()));
    process.stdout.write(`${inertJson(JSON.stringify(ev))}\n`);
  };
  const abort = new AbortController();
  const stop = () => abort.abort();
  // The parent gone (stdin ended) or stopping us (SIGTERM): cancel the turn; close() stops everything.
  void ended.then(stop);
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  const sandbox = parseSandbox(context.sandbox, [configDir()], context.sandbox_readable);
  startupMark("task read");
  const rt = await setupAgent({
    workspace: context.workspace,
    provider: context.provider,
    model: spec.agent.model ?? context.model,
    ...(context.base_url ? { baseUrl: context.base_url } : {}),
    approve: context.approve,
    ...(sandbox ? { sandbox } : {}),
    ...(context.allow_destructive ? { allowDestructive: true } : {}),
    maxTurns: Number.POSITIVE_INFINITY,
    emit,
    child: {
      ...(prestarted ? { prestarted } : {}),
      agent: spec.agent,
      parent: { session_id: context.session_id, call_id: spec.call_id, agent: spec.agent.name },
    },
  });
  startupMark("set up");
  session = rt.session;
  price = () => rt.agent.model.price;
  try {
    const result = await rt.agent.send(spec.prompt, abort.signal);
    return result.stop === "end" || result.stop === "length" ? 0 : 1;
  } catch (err) {
    if (err instanceof UserError) throw err;
    emit({ type: "error", kind: (err as { kind?: string }).kind ?? "error", message: errorMessage(err) });
    return 1;
  } finally {
    await rt.close();
    // stdin was kept open only to notice the parent going away: let the process end now.
    process.stdin.destroy();
  }
}
