// Serves worker modules over NDJSON on stdio (or any byte streams): the loop every worker runs.
import { encodeLine, LineDecoder } from "../../src/worker/framing.ts";
import {
  type HookEvent,
  MAX_LINE_BYTES,
  PROTOCOL_VERSION,
  Request,
  ToolResult,
} from "../../src/worker/protocol.ts";
import type { Data, WorkerContext, WorkerModule } from "./module.ts";

export interface ServeIO {
  input: NodeJS.ReadableStream;
  write(line: string): void;
  log(message: string): void;
}

const defaultIO = (): ServeIO => ({
  input: process.stdin,
  write: (line) => process.stdout.write(line),
  log: (m) => process.stderr.write(`${m}\n`),
});

function pick(modules: WorkerModule[], req: Request): WorkerModule | undefined {
  if (req.module) return modules.find((m) => m.name === req.module);
  if (modules.length === 1) return modules[0];
  if (req.event === "hello") return modules.find((m) => m.name === req.data.module);
  if (req.event === "tool") return modules.find((m) => m.tools?.some((t) => t.decl.name === req.data.name));
  return modules.find((m) => Object.hasOwn(m.hooks, req.event));
}

const isPlainObject = (v: unknown): v is Data => typeof v === "object" && v !== null && !Array.isArray(v);

async function handle(modules: WorkerModule[], req: Request, log: (m: string) => void): Promise<Data> {
  const mod = pick(modules, req);
  if (req.event === "hello") {
    if (!mod) throw new Error(`this worker does not serve module "${String(req.data.module)}"`);
    return {
      ...req.data,
      protocol: PROTOCOL_VERSION,
      module: mod.name,
      hooks: Object.keys(mod.hooks),
      tools: (mod.tools ?? []).map((t) => t.decl),
    };
  }
  if (!mod) return req.data;
  const ctx: WorkerContext = {
    workspace: req.workspace,
    event: req.event,
    module: mod.name,
    cwd: process.cwd(),
    log,
  };
  if (req.event === "tool") {
    const tool = mod.tools?.find((t) => t.decl.name === req.data.name);
    if (!tool) throw new Error(`unknown tool "${String(req.data.name)}"`);
    const result = await tool.run(req.data.arguments, { ...ctx, callId: String(req.data.call_id ?? "") });
    // Caught here, the bug is reported as an error reply; sent on, it would get the worker evicted.
    if (!ToolResult.safeParse(result).success)
      throw new Error(`tool "${tool.decl.name}" returned an invalid result`);
    return { ...req.data, result };
  }
  const handler = Object.hasOwn(mod.hooks, req.event) ? mod.hooks[req.event as HookEvent] : undefined;
  // Events a module does not handle come back unchanged (DESIGN §6).
  if (!handler) return req.data;
  const out = await handler(req.data, ctx);
  if (!isPlainObject(out))
    throw new Error(`hook "${req.event}" of module "${mod.name}" did not return an object`);
  return out;
}

/** Serve until input ends. Requests are answered in the order they complete, matched by id. */
export function serve(modules: WorkerModule[], io: ServeIO = defaultIO()): Promise<void> {
  return new Promise((resolve) => {
    const onLine = (line: string) => {
      if (line.trim() === "") return;
      let req: Request;
      try {
        const parsed = Request.safeParse(JSON.parse(line));
        if (!parsed.success) throw new Error(parsed.error.issues[0]?.message ?? "invalid request");
        req = parsed.data;
      } catch (err) {
        io.log(`protocol: dropping malformed request: ${(err as Error).message}`);
        return;
      }
      handle(modules, req, io.log).then(
        (data) => io.write(encodeLine({ id: req.id, data })),
        (err: unknown) =>
          io.write(encodeLine({ id: req.id, error: err instanceof Error ? err.message : String(err) })),
      );
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
