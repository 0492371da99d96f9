// SIGTERM to the console while it has children of every kind: a sub-agent's child session (running the
// model's command) and an MCP stdio server. Nothing is left running, the terminal is given back, exit 143.
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { RecordedRequest } from "../fixtures/mock-server/script.ts";
import { alive, descendants, pollUntil } from "../helpers/procs.ts";
import { consoleIn, Pty } from "../helpers/pty.ts";
import { BUN, FIXTURES, mcpRig } from "../mcp/rig.ts";
import { liveConsole } from "./console-pty.ts";

const live = liveConsole();

const until = (cond: () => boolean, ms = 30_000) => pollUntil(cond, ms);

const lines = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").split("\n") : []);

test.skipIf(process.platform !== "linux")(
  "SIGTERM while a task child runs a command and an MCP server is up: nothing left, terminal back, exit 143",
  async () => {
    live.rig = await mcpRig(
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
    const counter = join(live.rig.root, "server.txt");
    live.pty = await Pty.start(
      // --sandbox off: the command reports its own pid ($$), which inside the sandbox's pid namespace is
      // not the one /proc shows here (kill -9 with the sandbox on: test/runtime/kill9-children.test.ts).
      consoleIn(live.rig, ["--approve", "all", "--sandbox", "off"], {
        cols: 100,
        rows: 30,
        env: { COUNTER: counter },
      }),
    );
    await live.pty.waitFor("Ctrl-C cancels");
    const pid = await live.pty.pid();
    await live.pty.type("delegate it");
    await live.pty.press("Enter");
    const pgidFile = join(live.rig.workspace, "child-pgid.txt");
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
    await live.pty.waitExit();
    expect(await live.pty.exitStatus()).toBe(143);
    expect(await until(() => tree.filter(alive).length === 0, 10_000)).toBe(true);
    const stty = await live.pty.sttyAfterExit();
    expect(stty).toMatch(/(^|\s)icanon(\s|$)/);
    expect(stty).toMatch(/(^|\s)echo(\s|$)/);
    const raw = await live.pty.raw();
    expect(raw.lastIndexOf("\u001b[?2004l")).toBeGreaterThan(raw.lastIndexOf("\u001b[?2004h"));
    expect(raw.lastIndexOf("\u001b[?25h")).toBeGreaterThanOrEqual(raw.lastIndexOf("\u001b[?25l"));
  },
  120_000,
);
