// End to end through the real CLI, worker processes and the mock model, for both wire formats: a tool loop
// with read, edit and bash; the session on disk; resume.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { History } from "../../src/contract/history.ts";
import { validateHistory } from "../../src/lib/validate-history.ts";
import { savedSessionIds } from "../helpers/cli.ts";
import { events, makeRig, type Rig } from "./rig.ts";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const toolScript = [
  { tool_calls: [{ name: "read", arguments: { path: "hello.txt" } }] },
  { tool_calls: [{ name: "edit", arguments: { path: "hello.txt", old_text: "world", new_text: "there" } }] },
  { tool_calls: [{ name: "bash", arguments: { command: "cat hello.txt && echo from-bash" } }] },
  { text: "Done: hello.txt now says hello there." },
];

function sessionDir(r: Rig): string {
  const ids = savedSessionIds(r.dataDir);
  expect(ids).toHaveLength(1);
  return join(r.dataDir, ids[0] as string);
}

for (const provider of ["openai", "anthropic"] as const) {
  describe(`tool loop (${provider})`, () => {
    test("read, edit, bash, final answer; session saved", async () => {
      rig = await makeRig({ script: toolScript, provider, files: { "hello.txt": "hello world\n" } });
      const r = await rig.run(["-p", "change world to there", "--approve", "all"]);
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      expect(r.stdout).toBe("Done: hello.txt now says hello there.\n");
      expect(readFileSync(join(rig.workspace, "hello.txt"), "utf8")).toBe("hello there\n");
      expect(rig.mock.requests).toHaveLength(4);
      expect(rig.mock.requests.every((q) => q.format === provider)).toBe(true);
      // the last request carries the bash output back to the model
      const last = JSON.stringify(rig.mock.requests[3]?.body);
      expect(last).toContain("from-bash");
      expect(last).toContain("hello there");

      const dir = sessionDir(rig);
      const history = History.parse(JSON.parse(readFileSync(join(dir, "history.json"), "utf8")));
      expect(validateHistory(history)).toBeUndefined();
      expect(history.map((m) => m.role)).toEqual([
        "system",
        "user",
        "assistant",
        "tool",
        "assistant",
        "tool",
        "assistant",
        "tool",
        "assistant",
      ]);
      expect(existsSync(join(dir, "events.jsonl"))).toBe(true);
      expect(existsSync(join(dir, "meta.json"))).toBe(true);
    });
  });
}

describe("json events and resume", () => {
  test("--json streams events; -c resumes with the whole earlier history", async () => {
    rig = await makeRig({
      script: [{ text: "first answer" }, { text: "second answer" }],
      files: {},
    });
    const first = await rig.run(["-p", "remember the word kiwi", "--json"]);
    expect(first.code).toBe(0);
    const evs = events(first.stdout);
    expect(evs[0]?.type).toBe("session");
    expect(evs.map((e) => e.type)).toContain("text_delta");
    expect(evs.map((e) => e.type)).toContain("budget");
    expect(evs.at(-1)).toMatchObject({ type: "done", text: "first answer" });
    const sessionId = evs[0]?.id as string;

    const second = await rig.run(["-p", "what was the word?", "-c"]);
    expect(second.code).toBe(0);
    expect(second.stdout).toBe("second answer\n");
    const body = JSON.stringify(rig.mock.requests[1]?.body);
    expect(body).toContain("remember the word kiwi");
    expect(body).toContain("first answer");
    expect(body).toContain("what was the word?");

    const third = await rig.run(["-p", "again", "-r", sessionId]);
    // the script is exhausted: a clear model error, exit 1, the session kept
    expect(third.code).toBe(1);
    expect(third.stderr).toContain(`session ${sessionId} saved`);
  });

  test("i sessions lists the session", async () => {
    rig = await makeRig({ script: [{ text: "ok" }] });
    await rig.run(["-p", "a title for this session"]);
    const { runCliAsync } = await import("../helpers/cli.ts");
    const r = await runCliAsync(["sessions", "--workspace", rig.workspace], rig.env);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("a title for this session");
  });
});
