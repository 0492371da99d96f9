// `i acp` driven by a bare JSON-RPC client over its stdio, for the benchmark (scripts/bench/acp.ts) and
// the bytecode order's ACP run (scripts/bytecode-order.ts).
import { type ChildProcess, spawn } from "node:child_process";

/** `i acp` against the mock model at `url`, every change allowed; stderr dropped unless asked for. */
export function startAcp(
  argv: readonly string[],
  url: string,
  cwd: string,
  env: Record<string, string>,
  stderr: "ignore" | "inherit" = "ignore",
): ChildProcess {
  const [file, ...args] = argv as [string, ...string[]];
  return spawn(
    file,
    [...args, "acp", "--base-url", url, "-m", "mock-model", "--provider", "openai", "--approve", "all"],
    { cwd, env, stdio: ["pipe", "pipe", stderr] },
  );
}

/**
 * A minimal JSON-RPC client over the agent's stdio: requests by id, notifications only counted. Not the
 * SDK's client: this process is also the mock model, and validating every update here would delay the
 * model's replies and be measured as the agent's time.
 */
export function connect(child: ChildProcess) {
  let buf = "";
  let next = 1;
  const waiting = new Map<number, (result: Record<string, unknown>) => void>();
  child.stdout?.on("data", (d: Buffer) => {
    buf += d.toString("utf8");
    let nl = buf.indexOf("\n");
    while (nl >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      nl = buf.indexOf("\n");
      // updates are notifications: only answers (a result or an error for our id) are read
      if (!line.startsWith('{"jsonrpc":"2.0","id"')) continue;
      const m = JSON.parse(line) as { id: number; result?: Record<string, unknown>; error?: unknown };
      if (m.error) throw new Error(`agent error: ${JSON.stringify(m.error)}`);
      waiting.get(m.id)?.(m.result ?? {});
      waiting.delete(m.id);
    }
  });
  return {
    request(method: string, params: unknown): Promise<Record<string, unknown>> {
      const id = next++;
      child.stdin?.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
      return new Promise((resolve) => waiting.set(id, resolve));
    },
  };
}
