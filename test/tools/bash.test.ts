// The bash tool: cwd, exit codes, output caps, timeouts and aborts that kill the whole process group,
// approval policies, and an environment without the core's credentials.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Approvals } from "../../src/tools/approvals.ts";
import { BASH_HEAD_BYTES, BASH_TAIL_BYTES } from "../../src/tools/bash.ts";
import { runCoreTool } from "../../src/tools/index.ts";
import type { ToolContext } from "../../src/tools/types.ts";
import { makeSandbox, run, type Sandbox } from "./helpers.ts";

let sb: Sandbox;
const leftovers: number[] = [];
const ctx = (over: Partial<ToolContext> = {}): ToolContext => ({
  workspace: sb.workspace,
  approvals: new Approvals({ policy: "all" }),
  ...over,
});

beforeAll(() => {
  sb = makeSandbox();
});
afterAll(() => {
  for (const pid of leftovers) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {}
  }
  sb.cleanup();
});

/** Alive and not a zombie waiting to be reaped. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return true;
  }
}

/** Wait (bounded) for the kernel to finish delivering a kill; the assertion is on the outcome only. */
async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 100 && isAlive(pid); i++) await Bun.sleep(20);
  return !isAlive(pid);
}

function pidFrom(name: string): number {
  return Number(readFileSync(join(sb.workspace, name), "utf8").trim());
}

describe("bash: running", () => {
  test("runs in the workspace, reports exit code 0", async () => {
    const r = await run("bash", { command: "pwd" }, ctx());
    expect(r).toMatchObject({ is_error: false, text: `${sb.workspace}\n[exit code 0]` });
  });

  test("non-zero exit is an error result with the code; stderr is captured", async () => {
    const r = await run("bash", { command: "echo out; echo err >&2; exit 7" }, ctx());
    expect(r.is_error).toBe(true);
    expect(r.text).toBe("out\nerr\n[exit code 7]");
  });

  test("no output", async () => {
    expect((await run("bash", { command: "true" }, ctx())).text).toBe("(no output)\n[exit code 0]");
  });

  test("stdin is closed: commands that read it do not hang", async () => {
    const r = await run("bash", { command: "cat; echo done" }, ctx());
    expect(r.text).toBe("done\n[exit code 0]");
  });

  test("large output keeps head and tail, with a note on what was cut", async () => {
    const r = await run("bash", { command: "seq 1 200000" }, ctx());
    const text = r.text;
    expect(text.startsWith("1\n2\n3\n")).toBe(true);
    expect(text).toContain("199999\n200000\n[to see all of the output");
    expect(text).toMatch(
      /\[… [\d.]+ [KM]iB \(\d+ lines\) cut from the middle of the output; [\d.]+ MiB in total …\]/,
    );
    expect(Buffer.byteLength(text)).toBeLessThan(BASH_HEAD_BYTES + BASH_TAIL_BYTES + 1000);
    // The cut falls between whole lines, and the note's count is exact: kept + cut = all lines.
    const cut = Number(/\((\d+) lines\) cut/.exec(text)?.[1]);
    const body = text.slice(0, text.indexOf("\n[to see all"));
    const kept = body
      .split("\n")
      .filter((l) => /^\d+$/.test(l))
      .map(Number);
    expect(kept.length + cut).toBe(200_000);
    const gap = kept.findIndex((n, i) => i > 0 && n !== (kept[i - 1] as number) + 1);
    expect((kept[gap] as number) - (kept[gap - 1] as number) - 1).toBe(cut);
  });

  test("the core's credentials are not in the command's environment", async () => {
    const saved = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = "sk-test-not-for-commands";
    try {
      const r = await run("bash", { command: 'echo "[$OPENAI_API_KEY]" "[$HOME]"' }, ctx());
      expect(r.text).toStartWith("[] [/");
    } finally {
      if (saved === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = saved;
    }
  });

  test("timeout above the maximum, even read as milliseconds, is a model mistake", async () => {
    const r = await run("bash", { command: "true", timeout: 600_001 }, ctx());
    expect(r.is_error).toBe(true);
    expect(r.text).toStartWith("invalid arguments for bash: timeout:");
  });

  test("a timeout over the maximum that fits as milliseconds is read so, with a note", async () => {
    const r = await run("bash", { command: "sleep 2; echo slow", timeout: 800 }, ctx());
    expect(r.is_error).toBe(true);
    expect(r.text).toContain("[timed out after 0.8 s:");
    expect(r.text).toEndWith(
      "[timeout 800 is over the 600 s maximum, so it was read as milliseconds: 0.8 s]",
    );
  });
});

describe("bash: timeout and abort kill the whole process group", () => {
  test("timeout kills the command and its background children", async () => {
    const r = await run(
      "bash",
      { command: "sleep 30 & echo $! > bg.pid; echo started; wait", timeout: 0.5 },
      ctx(),
    );
    const pid = pidFrom("bg.pid");
    leftovers.push(pid);
    expect(r.is_error).toBe(true);
    expect(r.text).toStartWith(
      "started\n[timed out after 0.5 s: the command and every process it started were killed",
    );
    expect(await gone(pid)).toBe(true);
  });

  test("children that ignore SIGTERM are killed too", async () => {
    const r = await run(
      "bash",
      { command: `sh -c 'trap "" TERM; echo $$ > stubborn.pid; sleep 30; sleep 30' & wait`, timeout: 0.5 },
      ctx(),
    );
    const pid = pidFrom("stubborn.pid");
    leftovers.push(pid);
    expect(r.text).toContain("[timed out after 0.5 s");
    expect(await gone(pid)).toBe(true);
  });

  test("abort kills the process group", async () => {
    const ac = new AbortController();
    const pending = runCoreTool(
      "bash",
      JSON.stringify({ command: "echo $$ > abort.pid; sleep 30" }),
      ctx({ signal: ac.signal }),
    );
    for (let i = 0; i < 250 && !existsSync(join(sb.workspace, "abort.pid")); i++) await Bun.sleep(20);
    ac.abort();
    const r = await pending;
    const pid = pidFrom("abort.pid");
    leftovers.push(pid);
    expect(r.is_error).toBe(true);
    expect(r.content).toContain("[aborted by the user");
    expect(await gone(pid)).toBe(true);
  });

  test("an already aborted signal runs nothing", async () => {
    const ac = new AbortController();
    ac.abort();
    const r = await run("bash", { command: "touch should-not-exist" }, ctx({ signal: ac.signal }));
    expect(r.is_error).toBe(true);
    expect(existsSync(join(sb.workspace, "should-not-exist"))).toBe(false);
  });

  test("a command still running when i exits is killed with it", async () => {
    // A second Ctrl-C exits at once: nothing else would stop a command that runs in its own session.
    const script = join(sb.root, "exit-mid-command.ts");
    writeFileSync(
      script,
      `import { existsSync } from "node:fs";
import { runCoreTool } from ${JSON.stringify(join(import.meta.dirname, "..", "..", "src", "tools", "index.ts"))};
import { Approvals } from ${JSON.stringify(join(import.meta.dirname, "..", "..", "src", "tools", "approvals.ts"))};
void runCoreTool("bash", JSON.stringify({ command: "echo $$ > exit.pid; sleep 30" }), { workspace: ${JSON.stringify(sb.workspace)}, approvals: new Approvals({ policy: "all" }) });
const wait = setInterval(() => { if (existsSync(${JSON.stringify(join(sb.workspace, "exit.pid"))})) process.exit(130); }, 20);
setTimeout(() => { clearInterval(wait); process.exit(3); }, 10_000);
`,
    );
    const r = spawnSync(process.execPath, [script], { encoding: "utf8", timeout: 30_000 });
    expect(r.status).toBe(130);
    const pid = pidFrom("exit.pid");
    leftovers.push(pid);
    expect(await gone(pid)).toBe(true);
  });

  test("a background process that sent its output elsewhere neither delays the result nor is reported", async () => {
    const r = await run(
      "bash",
      { command: "sleep 20 > /dev/null 2>&1 & echo $! > quiet.pid; echo started" },
      ctx(),
    );
    leftovers.push(pidFrom("quiet.pid"));
    // No note: the grace for output still being written was not waited out (it ends with the note).
    expect(r.text).toBe("started\n[exit code 0]");
  });

  test("a background process holding the output does not block the result", async () => {
    const r = await run("bash", { command: "sleep 20 & echo $! > holder.pid; echo started" }, ctx());
    leftovers.push(pidFrom("holder.pid"));
    expect(r.is_error).toBe(false);
    expect(r.text).toBe(
      "started\n[exit code 0]\n[background processes still hold the output open; later output is not captured]",
    );
  });
});
