// Nothing an MCP server started outlives `i`, whatever the exit (kill -9 included), and Ctrl-C during a
// call tells the server (notifications/cancelled).
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Rig } from "../agent/rig.ts";
import { pidExists } from "../worker/helpers.ts";
import { BUN, FIXTURES, mcpRig } from "./rig.ts";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const CRASHY = join(FIXTURES, "crashy.ts");

async function waitFor<T>(get: () => T | undefined, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = get();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 25));
  }
}

function serverState(counter: string): { pid: number; calling: boolean; cancelled: boolean } | undefined {
  if (!existsSync(counter)) return undefined;
  const lines = readFileSync(counter, "utf8").split("\n");
  const start = lines.find((l) => l.startsWith("start "));
  if (!start) return undefined;
  return {
    pid: Number(start.split(" ")[1]),
    calling: lines.includes("calling"),
    cancelled: lines.includes("cancelled"),
  };
}

async function slowCallRig(): Promise<{ rig: Rig; counter: string }> {
  const r = await mcpRig(
    { slow: { command: BUN, args: [CRASHY, "--slow-call"], env: { CRASHY_COUNTER: `\${COUNTER}` } } },
    { script: [{ tool_calls: [{ name: "mcp__slow__ok", arguments: {} }] }, { text: "ok" }] },
  );
  return { rig: r, counter: join(r.root, "server.txt") };
}

describe("mcp: exits", () => {
  test("kill -9 of i in the middle of a call: the server does not outlive it", async () => {
    const made = await slowCallRig();
    rig = made.rig;
    const run = rig.start(["-p", "go", "--approve", "all"], { COUNTER: made.counter });
    const state = await waitFor(() => {
      const s = serverState(made.counter);
      return s?.calling ? s : undefined;
    });
    expect(pidExists(state.pid)).toBe(true);
    run.child.kill("SIGKILL");
    await run.done;
    await waitFor(() => (pidExists(state.pid) ? undefined : true), 10_000);
  }, 60_000);

  test("Ctrl-C during a call sends notifications/cancelled to the server, and the run ends", async () => {
    const made = await slowCallRig();
    rig = made.rig;
    const run = rig.start(["-p", "go", "--approve", "all"], { COUNTER: made.counter });
    const state = await waitFor(() => {
      const s = serverState(made.counter);
      return s?.calling ? s : undefined;
    });
    run.child.kill("SIGINT");
    const r = await run.done;
    expect(r.code).not.toBe(0);
    await waitFor(() => (serverState(made.counter)?.cancelled ? true : undefined), 5_000);
    await waitFor(() => (pidExists(state.pid) ? undefined : true), 10_000);
  }, 60_000);
});
