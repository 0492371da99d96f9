// Cancel during a long command, session/load of a saved session, list, and the client going away mid-turn.
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { methods } from "@agentclientprotocol/sdk";
import { savedSessionIds } from "../helpers/cli.ts";
import { alive, descendants, pollUntil } from "../helpers/procs.ts";
import {
  type AcpRig,
  agentText,
  initialize,
  newSession,
  prompt,
  startAcp,
  until,
  updatesOf,
} from "./harness.ts";

let a: AcpRig | undefined;
afterEach(async () => {
  await a?.close();
  a = undefined;
});

const longBash = { tool_calls: [{ name: "bash", arguments: { command: "echo started; sleep 37" } }] };

/** The `sleep 37` the agent's bash started, once it runs. */
async function sleeper(agentPid: number): Promise<number> {
  let pid: number | undefined;
  await pollUntil(() => {
    pid = descendants(agentPid).find((p) => {
      try {
        return readFileSync(`/proc/${p}/cmdline`, "utf8").startsWith("sleep\u000037");
      } catch {
        return false;
      }
    });
    return pid !== undefined;
  }, 10_000);
  if (pid === undefined) throw new Error("the command did not start");
  return pid;
}

describe("i acp: cancel and load", () => {
  test("session/cancel during a long bash kills it and ends the turn with cancelled", async () => {
    a = await startAcp({ script: [longBash, { text: "never" }], args: ["--approve", "all"] });
    await initialize(a);
    const s = await newSession(a);
    const turn = prompt(a, s.sessionId, "run it");
    const pid = await sleeper(a.child.pid as number);
    await until(() =>
      updatesOf(a as AcpRig, "tool_call_update").some((u) =>
        JSON.stringify(u.content ?? "").includes("started"),
      ),
    );
    const t0 = Date.now();
    await a.conn.agent.notify(methods.agent.session.cancel, { sessionId: s.sessionId });
    expect((await turn).stopReason).toBe("cancelled");
    expect(Date.now() - t0).toBeLessThan(3000);
    expect(await pollUntil(() => !alive(pid), 2000)).toBe(true);
    expect(updatesOf(a, "tool_call_update").at(-1)?.status).toBe("failed");
    // the session goes on: the next prompt is answered
    expect((await prompt(a, s.sessionId, "again")).stopReason).toBe("end_turn");
  }, 30_000);

  test("session/load replays a saved conversation; session/list lists it; it is an ordinary session", async () => {
    a = await startAcp({
      script: [
        { tool_calls: [{ name: "read", arguments: { path: "a.txt" } }] },
        { text: "It says hi." },
        { text: "second" },
        { text: "from the command line" },
      ],
      files: { "a.txt": "hi\n" },
    });
    await initialize(a);
    const s = await newSession(a);
    await prompt(a, s.sessionId, "what does a.txt say?");
    const list = await a.conn.agent.request(methods.agent.session.list, { cwd: a.rig.workspace });
    expect(list.sessions.map((x) => x.sessionId)).toEqual([s.sessionId]);
    expect(list.sessions[0]?.title).toBe("what does a.txt say?");
    await a.conn.agent.request(methods.agent.session.close, { sessionId: s.sessionId });
    a.updates.length = 0;
    await a.conn.agent.request(methods.agent.session.load, {
      sessionId: s.sessionId,
      cwd: a.rig.workspace,
      mcpServers: [],
    });
    const kinds = a.updates
      .map((u) => u.update.sessionUpdate)
      .filter((k) => k !== "available_commands_update" && k !== "config_option_update");
    expect(kinds).toEqual(["user_message_chunk", "tool_call", "agent_message_chunk"]);
    expect(updatesOf(a, "tool_call")[0]).toMatchObject({
      kind: "read",
      status: "completed",
      title: "Read a.txt",
    });
    expect(agentText(a)).toBe("It says hi.");
    expect((await prompt(a, s.sessionId, "more")).stopReason).toBe("end_turn");
    expect(savedSessionIds(a.rig.dataDir)).toEqual([s.sessionId]);
    // closed in the editor, it resumes on the command line like any session
    await a.conn.agent.request(methods.agent.session.close, { sessionId: s.sessionId });
    const cli = await a.rig.run(["-p", "-r", s.sessionId, "and now?"]);
    expect(cli.stdout).toBe("from the command line\n");
    expect(cli.code).toBe(0);
    await expect(
      a.conn.agent.request(methods.agent.session.load, {
        sessionId: "nope",
        cwd: a.rig.workspace,
        mcpServers: [],
      }),
    ).rejects.toThrow();
  }, 30_000);
});

describe("i acp: the client goes away", () => {
  test("stdin EOF mid-turn: the turn is cancelled, the session saved, children ended, exit within 2 s", async () => {
    a = await startAcp({ script: [longBash, { text: "never" }], args: ["--approve", "all"] });
    await initialize(a);
    const s = await newSession(a);
    void prompt(a, s.sessionId, "run it").catch(() => {});
    const pid = await sleeper(a.child.pid as number);
    const t0 = Date.now();
    a.child.stdin?.end();
    const code = await a.exited;
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(code).toBe(0);
    expect(await pollUntil(() => !alive(pid), 1000)).toBe(true);
    const history = JSON.parse(readFileSync(join(a.rig.dataDir, s.sessionId, "history.json"), "utf8"));
    expect(JSON.stringify(history)).toContain("run it");
  }, 30_000);

  test("SIGTERM and SIGHUP: the same clean end", async () => {
    a = await startAcp({ script: [longBash, { text: "never" }], args: ["--approve", "all"] });
    await initialize(a);
    const s = await newSession(a);
    void prompt(a, s.sessionId, "run it").catch(() => {});
    const pid = await sleeper(a.child.pid as number);
    a.child.kill("SIGTERM");
    expect(await a.exited).toBe(143);
    expect(await pollUntil(() => !alive(pid), 1000)).toBe(true);
    await a.close();
    a = await startAcp({ script: [longBash, { text: "never" }], args: ["--approve", "all"] });
    await initialize(a);
    const s2 = await newSession(a);
    void prompt(a, s2.sessionId, "run it").catch(() => {});
    const pid2 = await sleeper(a.child.pid as number);
    a.child.kill("SIGHUP");
    expect(await a.exited).toBe(129);
    expect(await pollUntil(() => !alive(pid2), 1000)).toBe(true);
  }, 30_000);
});
