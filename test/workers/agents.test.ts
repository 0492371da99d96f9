// Sub-agents end to end: the real CLI, the agents worker and child `i` sessions as their own processes,
// against the mock model. Parent and child are told apart by their prompts: a child's system prompt names
// its role ("Your role: the … sub-agent").
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { events, makeRig, type Rig } from "../agent/rig.ts";
import type { MockStep, RecordedRequest } from "../fixtures/mock-server/script.ts";
import { runCliAsync } from "../helpers/cli.ts";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const isChild = (req: RecordedRequest) => JSON.stringify(req.body).includes("Your role: the");
const task = (args: Record<string, unknown>) => ({ name: "task", arguments: args });

/** pids of live processes started for this rig (they carry its data directory in their environment) */
function rigProcesses(r: Rig): number[] {
  const out: number[] = [];
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const env = readFileSync(`/proc/${pid}/environ`, "latin1");
      const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
      if (env.includes(`I_DATA_DIR=${r.dataDir}\0`) && !/\) Z /.test(stat)) out.push(Number(pid));
    } catch {}
  }
  return out;
}

async function until(cond: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (cond()) return true;
    await Bun.sleep(50);
  }
  return cond();
}

function scripted(child: (req: RecordedRequest) => MockStep, parent: (req: RecordedRequest) => MockStep) {
  return (req: RecordedRequest) => (isChild(req) ? child(req) : parent(req));
}

describe("task tool", () => {
  test("the child's answer reaches the parent; its session is linked; its tokens are counted", async () => {
    rig = await makeRig({
      files: {},
      script: scripted(
        () => ({ text: "child answer 42", usage: { input_tokens: 1000, output_tokens: 7 } }),
        (req) =>
          JSON.stringify(req.body).includes("child answer 42")
            ? { text: "parent done", usage: { input_tokens: 10, output_tokens: 1 } }
            : {
                tool_calls: [task({ description: "find it", prompt: "look for 42", agent: "explore" })],
                usage: { input_tokens: 10, output_tokens: 1 },
              },
      ),
    });
    const r = await rig.run(["-p", "delegate", "--json"]);
    expect(r.code).toBe(0);
    const evs = events(r.stdout);
    expect(evs.at(-1)).toMatchObject({ type: "done", text: "parent done" });
    // parent's two requests plus the child's one
    expect(evs.at(-1)?.usage).toMatchObject({ input_tokens: 1020, output_tokens: 9 });
    const result = evs.find((e) => e.type === "tool_result");
    expect(result).toMatchObject({ name: "task", is_error: false, content: "child answer 42" });
    const start = evs.find((e) => e.type === "task" && e.phase === "start");
    expect(start).toMatchObject({ agent: "explore", description: "find it" });
    const end = evs.find((e) => e.type === "task" && e.phase === "end");
    expect(end).toMatchObject({ is_error: false, usage: { input_tokens: 1000, output_tokens: 7 } });
    const childId = evs.find((e) => e.type === "task" && e.session_id)?.session_id as string;
    const parentId = evs[0]?.id as string;
    const meta = JSON.parse(readFileSync(join(rig.dataDir, childId, "meta.json"), "utf8"));
    expect(meta.parent).toMatchObject({ session_id: parentId, agent: "explore" });
    // the child was asked with only its tools, and no task tool of its own
    const childReq = rig.mock.requests.find(isChild);
    const toolNames = JSON.stringify((childReq?.body as { tools?: unknown })?.tools);
    for (const t of ["read", "grep", "find"]) expect(toolNames).toContain(`"${t}"`);
    for (const t of ["write", "edit", "bash", "task"]) expect(toolNames).not.toContain(`"name":"${t}"`);
    expect(rigProcesses(rig)).toEqual([]);
  });

  test("two tasks in one message run in parallel", async () => {
    const delay = 1500;
    rig = await makeRig({
      files: {},
      script: scripted(
        () => ({ text: "child ok", delay_ms: delay }),
        (req) =>
          JSON.stringify(req.body).includes("child ok")
            ? { text: "both done" }
            : {
                tool_calls: [
                  task({ description: "one", prompt: "first" }),
                  task({ description: "two", prompt: "second" }),
                ],
              },
      ),
    });
    const r = await rig.run(["-p", "two at once", "--json"]);
    expect(r.code).toBe(0);
    const evs = events(r.stdout);
    const ends = evs.filter((e) => e.type === "task" && e.phase === "end");
    expect(ends).toHaveLength(2);
    const order = evs.filter((e) => e.type === "task" && e.phase !== "progress").map((e) => e.phase);
    expect(order).toEqual(["start", "start", "end", "end"]);
    const sum = ends.reduce((n, e) => n + (e.duration_ms as number), 0);
    const results = evs.filter((e) => e.type === "tool_result");
    const wall = Math.max(...results.map((e) => e.duration_ms as number));
    expect(wall).toBeLessThan(sum * 0.8);
    expect(results.map((e) => e.content)).toEqual(["child ok", "child ok"]);
  });

  test("an explore child cannot write; an unknown agent is a tool error naming the agents", async () => {
    rig = await makeRig({
      files: {},
      script: scripted(
        (req) =>
          JSON.stringify(req.body).includes("not available to this agent")
            ? { text: "could not write" }
            : { tool_calls: [{ name: "write", arguments: { path: "x.txt", content: "pwned" } }] },
        (req) => {
          const body = JSON.stringify(req.body);
          if (body.includes("could not write")) return { text: "ok" };
          if (body.includes("unknown agent"))
            return { tool_calls: [task({ description: "w", prompt: "write x", agent: "explore" })] };
          return { tool_calls: [task({ description: "w", prompt: "write x", agent: "nosuch" })] };
        },
      ),
    });
    const r = await rig.run(["-p", "go", "--json", "--approve", "all"]);
    expect(r.code).toBe(0);
    const results = events(r.stdout).filter((e) => e.type === "tool_result");
    expect(results[0]?.content).toContain('unknown agent "nosuch"; available agents: general, explore');
    expect(results[1]).toMatchObject({ is_error: false, content: "could not write" });
    expect(existsSync(join(rig.workspace, "x.txt"))).toBe(false);
  });

  for (const how of ["SIGINT", "SIGKILL"] as const) {
    test(`${how === "SIGINT" ? "Ctrl-C" : "kill -9"} of the parent leaves no child`, async () => {
      rig = await makeRig({
        files: {},
        script: scripted(
          () => ({ text: "never", hang: true }),
          () => ({
            tool_calls: [task({ description: "a", prompt: "x" }), task({ description: "b", prompt: "y" })],
          }),
        ),
      });
      const r = rig;
      const run = r.start(["-p", "go", "--json"]);
      let out = "";
      run.child.stdout?.on("data", (c: Buffer) => {
        out += c.toString("utf8");
      });
      // both children have made their model request
      expect(await until(() => r.mock.requests.filter(isChild).length === 2, 20_000)).toBe(true);
      expect(rigProcesses(r).length).toBeGreaterThanOrEqual(4);
      const t0 = Date.now();
      run.child.kill(how);
      await run.done;
      expect(await until(() => rigProcesses(r).length === 0, 3000)).toBe(true);
      if (how === "SIGINT") expect(Date.now() - t0).toBeLessThan(2500);
      expect(out).toContain('"phase":"start"');
    });
  }
});

describe("task sessions and bad input", () => {
  test("i sessions lists a task's session under its parent; -c resumes the parent, not the task", async () => {
    rig = await makeRig({
      files: {},
      script: scripted(
        () => ({ text: "child says hi" }),
        (req) => {
          const b = JSON.stringify(req.body);
          if (b.includes("second prompt")) return { text: "resumed the parent" };
          return b.includes("child says hi")
            ? { text: "parent done" }
            : { tool_calls: [task({ description: "greet", prompt: "say hi" })] };
        },
      ),
    });
    const first = await rig.run(["-p", "first prompt", "--json"]);
    expect(first.code).toBe(0);
    const parentId = events(first.stdout)[0]?.id as string;
    const list = await runCliAsync(["sessions", "--workspace", rig.workspace], rig.env);
    expect(list.stderr).toBe("");
    const lines = list.stdout.split("\n");
    const parentLine = lines.findIndex((l) => l.startsWith(parentId));
    expect(parentLine).toBeGreaterThan(0);
    expect(lines[parentLine + 1]).toMatch(/^↳ \S+ .*\[task general\] say hi/);
    const again = await rig.run(["-p", "second prompt", "-c", "--json"]);
    expect(events(again.stdout)[0]).toMatchObject({ type: "session", id: parentId, resumed: true });
  });

  test("a bad agent definition is one line naming the file and field; a child that cannot start is a tool error", async () => {
    rig = await makeRig({
      files: {},
      script: (req) => {
        const b = JSON.stringify(req.body);
        if (b.includes("field description")) return { text: "told" };
        return { tool_calls: [task({ description: "r", prompt: "review", agent: "reviewer" })] };
      },
    });
    const { mkdirSync, writeFileSync } = await import("node:fs");
    mkdirSync(join(rig.configDir, "agents"), { recursive: true });
    const file = join(rig.configDir, "agents", "reviewer.md");
    writeFileSync(file, "---\nname: reviewer\ntools: read\n---\nReview the code.\n");
    const r = await rig.run(["-p", "review please", "--json"]);
    expect(r.code).toBe(0);
    const result = events(r.stdout).find((e) => e.type === "tool_result");
    expect(result?.is_error).toBe(true);
    expect(result?.content).toBe(`${file}: front matter: field description is missing; add it (a string)`);
  });

  test("no credential is readable by a child's tool processes", async () => {
    rig = await makeRig({
      files: {},
      script: scripted(
        (req) =>
          JSON.stringify(req.body).includes("env-dumped")
            ? { text: "dumped" }
            : {
                tool_calls: [
                  {
                    name: "bash",
                    arguments: {
                      command:
                        "env > child-env.txt; for p in /proc/[0-9]*; do tr '\\0' '\\n' < $p/environ 2>/dev/null; cat $p/cmdline 2>/dev/null; done > all-env.txt; echo env-dumped",
                    },
                  },
                ],
              },
        (req) =>
          JSON.stringify(req.body).includes("dumped")
            ? { text: "ok" }
            : { tool_calls: [task({ description: "dump", prompt: "dump env" })] },
      ),
    });
    const r = await rig.run(["-p", "go", "--approve", "all", "--json"]);
    expect(r.code).toBe(0);
    const all = readFileSync(join(rig.workspace, "all-env.txt"), "latin1");
    expect(readFileSync(join(rig.workspace, "child-env.txt"), "utf8")).toContain("PATH=");
    expect(all.length).toBeGreaterThan(0);
    expect(all).not.toContain("sk-test-key-not-real");
  });
});

test("a child that fails is a tool error naming why; the parent goes on", async () => {
  rig = await makeRig({
    files: {},
    script: scripted(
      () => ({ error: "auth" }),
      (req) =>
        JSON.stringify(req.body).includes("task failed")
          ? { text: "the task failed, noted" }
          : { tool_calls: [task({ description: "doomed", prompt: "x" })] },
    ),
  });
  const r = await rig.run(["-p", "go", "--json"]);
  expect(r.code).toBe(0);
  const evs = events(r.stdout);
  const result = evs.find((e) => e.type === "tool_result");
  expect(result?.is_error).toBe(true);
  expect(String(result?.content)).toMatch(/^task failed: the general agent stopped without an answer: .*401/);
  expect(evs.at(-1)).toMatchObject({ type: "done", text: "the task failed, noted" });
  expect(evs.find((e) => e.type === "task" && e.phase === "end")).toMatchObject({ is_error: true });
  expect(rigProcesses(rig)).toEqual([]);
});

test("a child never asks: what would need approval is refused with a tool error saying so", async () => {
  rig = await makeRig({
    files: {},
    script: scripted(
      (req) =>
        JSON.stringify(req.body).includes("a sub-agent cannot ask the user")
          ? { text: "needs approval: touch x" }
          : { tool_calls: [{ name: "bash", arguments: { command: "touch x" } }] },
      (req) =>
        JSON.stringify(req.body).includes("needs approval: touch x")
          ? { text: "ok" }
          : { tool_calls: [task({ description: "t", prompt: "touch x" })] },
    ),
  });
  const r = await rig.run(["-p", "go", "--json", "--approve", "ask"]);
  expect(r.code).toBe(0);
  expect(events(r.stdout).find((e) => e.type === "tool_result")?.content).toBe("needs approval: touch x");
  expect(existsSync(join(rig.workspace, "x"))).toBe(false);
});
