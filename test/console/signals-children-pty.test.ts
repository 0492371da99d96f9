// SIGTERM to the console while it has children of every kind: a sub-agent's child session (running the
// model's command) and an MCP stdio server. Nothing is left running, the terminal is given back, exit 143.
import { afterEach, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { procStat } from "../../src/runtime/proc-stat.ts";
import type { Rig } from "../agent/rig.ts";
import type { RecordedRequest } from "../fixtures/mock-server/script.ts";
import { consoleIn, Pty } from "../helpers/pty.ts";
import { BUN, FIXTURES, mcpRig } from "../mcp/rig.ts";

let rig: Rig | undefined;
let pty: Pty | undefined;
afterEach(async () => {
  await pty?.close();
  await rig?.close();
  pty = undefined;
  rig = undefined;
});

function descendants(root: number): number[] {
  const parent = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const ppid = procStat(name)?.(4);
    if (ppid !== undefined) parent.set(Number(name), Number(ppid));
  }
  return [...parent.keys()].filter((pid) => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) if (p === root) return true;
    return false;
  });
}

const alive = (pid: number) => {
  const state = procStat(pid)?.(3);
  return state !== undefined && state !== "Z";
};

async function until(cond: () => boolean, ms = 30_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

const lines = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").split("\n") : []);

test.skipIf(process.platform !== "linux")(
  "SIGTERM while a task child runs a command and an MCP server is up: nothing left, terminal back, exit 143",
  async () => {
    rig = await mcpRig(
      { fx: { command: BUN, args: [join(FIXTURES, "crashy.ts")], env: { CRASHY_COUNTER: `\${COUNTER}` } } },
      {
        files: {},
        script: (req: RecordedRequest) => {
          const b = JSON.stringify(req.body);
          if (b.includes("Your role: the"))
            return {
              tool_calls: [{ name: "bash", arguments: { command: "echo $$ > child-pgid.txt; sleep 300" } }],
            };
          return {
            tool_calls: [
              { name: "task", arguments: { description: "a long one", prompt: "wait", agent: "general" } },
            ],
          };
        },
      },
    );
    const counter = join(rig.root, "server.txt");
    pty = await Pty.start(
      consoleIn(rig, ["--approve", "all"], { cols: 100, rows: 30, env: { COUNTER: counter } }),
    );
    await pty.waitFor("Ctrl-C cancels");
    const pid = await pty.pid();
    await pty.type("delegate it");
    await pty.press("Enter");
    const pgidFile = join(rig.workspace, "child-pgid.txt");
    expect(
      await until(() => lines(pgidFile)[0]?.trim() !== undefined && lines(pgidFile)[0]?.trim() !== ""),
    ).toBe(true);
    const servers = lines(counter)
      .filter((l) => l.startsWith("start "))
      .map((l) => Number(l.split(" ")[1]));
    expect(servers.length).toBeGreaterThanOrEqual(1);
    const tree = descendants(pid);
    const commandGroup = Number(lines(pgidFile)[0]);
    expect(tree).toContain(commandGroup);
    for (const s of servers) expect(tree).toContain(s);
    // The task child is one more `i` (its own session), with its own workers.
    const cmdline = (p: number) => {
      try {
        return readFileSync(`/proc/${p}/cmdline`, "utf8");
      } catch {
        return "";
      }
    };
    expect(tree.some((p) => cmdline(p).includes("task-child"))).toBe(true);
    process.kill(pid, "SIGTERM");
    await pty.waitExit();
    expect(await pty.exitStatus()).toBe(143);
    expect(await until(() => tree.filter(alive).length === 0, 10_000)).toBe(true);
    const stty = await pty.sttyAfterExit();
    expect(stty).toMatch(/(^|\s)icanon(\s|$)/);
    expect(stty).toMatch(/(^|\s)echo(\s|$)/);
    const raw = await pty.raw();
    expect(raw.lastIndexOf("\u001b[?2004l")).toBeGreaterThan(raw.lastIndexOf("\u001b[?2004h"));
    expect(raw.lastIndexOf("\u001b[?25h")).toBeGreaterThanOrEqual(raw.lastIndexOf("\u001b[?25l"));
  },
  120_000,
);
