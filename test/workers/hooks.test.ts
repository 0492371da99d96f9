// The user's hooks (hooks.json) end to end: the real CLI, the built-in hooks worker running real shell
// commands, and the mock model.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { events, makeRig, type Rig } from "../agent/rig.ts";
import { runCliAsync } from "../helpers/cli.ts";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

type Hook = { command: string; timeout?: number };
function writeHooks(r: Rig, hooks: Record<string, { matcher?: string; hooks: Hook[] }[]>): void {
  const withType = Object.fromEntries(
    Object.entries(hooks).map(([e, ms]) => [
      e,
      ms.map((m) => ({ ...m, hooks: m.hooks.map((h) => ({ type: "command", ...h })) })),
    ]),
  );
  writeFileSync(join(r.configDir, "hooks.json"), JSON.stringify({ hooks: withType }));
}

const bodyText = (r: Rig, i: number) => JSON.stringify(r.mock.requests[i]?.body ?? null);

/** Processes whose command line holds `marker` (a hook left behind would show here). */
function processesWith(marker: string): number {
  let n = 0;
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(marker)) n++;
    } catch {}
  }
  return n;
}

describe("hooks", () => {
  test("PreToolUse exit 2 blocks rm -rf; the model sees the reason; the rest still runs", async () => {
    rig = await makeRig({
      script: [
        { tool_calls: [{ name: "bash", arguments: { command: "rm -rf victim" } }] },
        { tool_calls: [{ name: "bash", arguments: { command: "echo fine > ok.txt" } }] },
        { text: "done" },
      ],
      files: { "victim/keep.txt": "precious\n" },
    });
    writeHooks(rig, {
      PreToolUse: [
        {
          matcher: "Bash",
          hooks: [
            { command: "grep -q 'rm -rf' && { echo 'rm -rf is not allowed here' >&2; exit 2; }; exit 0" },
          ],
        },
      ],
    });
    const r = await rig.run(["-p", "clean up", "--approve", "all", "--json"]);
    expect(r.code).toBe(0);
    expect(existsSync(join(rig.workspace, "victim", "keep.txt"))).toBe(true);
    expect(readFileSync(join(rig.workspace, "ok.txt"), "utf8")).toBe("fine\n");
    expect(bodyText(rig, 1)).toContain("rm -rf is not allowed here");
    const evs = events(r.stdout);
    const block = evs.find((e) => e.type === "hook");
    expect(block).toMatchObject({
      event: "PreToolUse",
      outcome: "block",
      message: "rm -rf is not allowed here",
    });
    expect(String(block?.hook)).toContain("grep -q");
    const results = evs.filter((e) => e.type === "tool_result");
    expect(results[0]).toMatchObject({ is_error: true });
    expect(results[1]).toMatchObject({ is_error: false });
  });

  test("PostToolUse runs a formatter after edit; the model sees the formatted file next", async () => {
    rig = await makeRig({
      script: [
        {
          tool_calls: [
            { name: "edit", arguments: { path: "f.txt", old_text: "old", new_text: "new words" } },
          ],
        },
        { tool_calls: [{ name: "read", arguments: { path: "f.txt" } }] },
        { text: "done" },
      ],
      files: { "f.txt": "some old text\n" },
    });
    writeHooks(rig, {
      PostToolUse: [
        {
          matcher: "edit|write",
          hooks: [{ command: "cat > input.json; tr a-z A-Z < f.txt > f.tmp && mv f.tmp f.txt" }],
        },
      ],
    });
    const r = await rig.run(["-p", "edit it", "--approve", "all"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(readFileSync(join(rig.workspace, "f.txt"), "utf8")).toBe("SOME NEW WORDS TEXT\n");
    // one run: after edit only (read does not match); the hook read the event on stdin
    const input = JSON.parse(readFileSync(join(rig.workspace, "input.json"), "utf8"));
    expect(input).toMatchObject({
      hook_event_name: "PostToolUse",
      tool_name: "edit",
      tool_input: { path: "f.txt", old_text: "old", new_text: "new words" },
      cwd: rig.workspace,
    });
    expect(typeof input.session_id).toBe("string");
    expect(input.tool_response.is_error).toBe(false);
    expect(bodyText(rig, 2)).toContain("SOME NEW WORDS TEXT");
  });

  test("SessionStart and UserPromptSubmit add their stdout to the model's context", async () => {
    rig = await makeRig({ script: [{ text: "hi" }], files: {} });
    writeHooks(rig, {
      SessionStart: [{ hooks: [{ command: "echo session-context-kiwi" }] }],
      UserPromptSubmit: [{ hooks: [{ command: "cat > prompt.json; echo prompt-context-mango" }] }],
    });
    const r = await rig.run(["-p", "hello there"]);
    expect(r.code).toBe(0);
    const body = bodyText(rig, 0);
    expect(body).toContain("session-context-kiwi");
    expect(body).toContain("prompt-context-mango");
    expect(JSON.parse(readFileSync(join(rig.workspace, "prompt.json"), "utf8"))).toMatchObject({
      hook_event_name: "UserPromptSubmit",
      prompt: "hello there",
    });
  });

  test("UserPromptSubmit exit 2: the prompt is not sent and the reason is shown", async () => {
    rig = await makeRig({ script: [{ text: "never" }], files: {} });
    writeHooks(rig, {
      UserPromptSubmit: [{ hooks: [{ command: "echo 'no secrets in prompts' >&2; exit 2" }] }],
    });
    const r = await rig.run(["-p", "my password is hunter2"]);
    expect(r.code).toBe(1);
    expect(rig.mock.requests).toHaveLength(0);
    expect(r.stderr).toContain("blocked: no secrets in prompts");
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  });

  test("Stop exit 2: the agent goes on with the reason, once", async () => {
    rig = await makeRig({ script: [{ text: "first stop" }, { text: "second stop" }], files: {} });
    writeHooks(rig, {
      Stop: [
        {
          hooks: [{ command: "test -e seen && exit 0; touch seen; echo 'run the tests first' >&2; exit 2" }],
        },
      ],
    });
    const r = await rig.run(["-p", "go"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("second stop\n");
    expect(rig.mock.requests).toHaveLength(2);
    expect(bodyText(rig, 1)).toContain("run the tests first");
  });

  test("a hung hook is killed with its group at its timeout: a warning, and the call runs", async () => {
    rig = await makeRig({
      script: [
        { tool_calls: [{ name: "bash", arguments: { command: "echo ran > ran.txt" } }] },
        { text: "ok" },
      ],
      files: {},
    });
    const marker = `sleep 47.${process.pid}`;
    writeHooks(rig, { PreToolUse: [{ hooks: [{ command: `${marker} & ${marker}; true`, timeout: 1 }] }] });
    const started = Date.now();
    const r = await rig.run(["-p", "go", "--approve", "all"]);
    expect(r.code).toBe(0);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(readFileSync(join(rig.workspace, "ran.txt"), "utf8")).toBe("ran\n");
    expect(r.stderr).toContain("killed after 1 s (its timeout)");
    expect(processesWith(marker)).toBe(0);
  });

  test("a hook sees no credential, in its environment or its parent's", async () => {
    rig = await makeRig({ script: [{ text: "ok" }], files: {} });
    writeHooks(rig, {
      SessionStart: [
        {
          hooks: [{ command: "env > env.txt; tr '\\0' '\\n' < /proc/$PPID/environ > parent-env.txt; true" }],
        },
      ],
    });
    const r = await rig.run(["-p", "go"]);
    expect(r.code).toBe(0);
    const own = readFileSync(join(rig.workspace, "env.txt"), "utf8");
    const parent = readFileSync(join(rig.workspace, "parent-env.txt"), "utf8");
    expect(own).toContain("I_PROJECT_DIR=");
    for (const text of [own, parent]) {
      expect(text).not.toContain("sk-test-key-not-real");
      expect(text).not.toContain("OPENAI_API_KEY");
    }
  });

  test("megabytes of output are bounded; a command that does not exist is one warning naming it", async () => {
    rig = await makeRig({ script: [{ text: "ok" }], files: {} });
    writeHooks(rig, {
      SessionStart: [
        { hooks: [{ command: "yes abcdefgh | head -c 8000000" }, { command: "no-such-hook-cmd-zz" }] },
      ],
    });
    const r = await rig.run(["-p", "go"]);
    expect(r.code).toBe(0);
    const body = bodyText(rig, 0);
    expect(body).toContain("output cut");
    expect(body.length).toBeLessThan(40_000);
    const lines = r.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("no-such-hook-cmd-zz");
    expect(lines[0]).toContain("exited with code 127");
  });

  test("bad hooks.json: one line naming the file and key, exit 2", async () => {
    rig = await makeRig({ script: [{ text: "never" }], files: {} });
    const file = join(rig.configDir, "hooks.json");
    const cases: [unknown, string][] = [
      [{ hooks: { PreTooluse: [] } }, 'unknown key "PreTooluse" in hooks; did you mean "PreToolUse"?'],
      [
        { hooks: { PreToolUse: [{ matcher: "(", hooks: [] }] } },
        "hooks.PreToolUse[0].matcher: is not a valid regular expression",
      ],
      [{ hooks: { Stop: [{ hooks: [{ type: "prompt", command: "x" }] }] } }, 'must be "command"'],
    ];
    for (const [content, want] of cases) {
      writeFileSync(file, JSON.stringify(content));
      const r = await rig.run(["-p", "go"]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(file);
      expect(r.stderr).toContain(want);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
    }
    expect(rig.mock.requests).toHaveLength(0);
  });

  test("a project's hooks.json runs only once accepted for the workspace", async () => {
    rig = await makeRig({ script: [{ text: "a" }, { text: "b" }, { text: "c" }], files: {} });
    mkdirSync(join(rig.workspace, ".i"), { recursive: true });
    const projectFile = join(rig.workspace, ".i", "hooks.json");
    writeFileSync(
      projectFile,
      JSON.stringify({
        hooks: { SessionStart: [{ hooks: [{ type: "command", command: "echo project-ctx" }] }] },
      }),
    );
    const first = await rig.run(["-p", "go"]);
    expect(first.code).toBe(0);
    expect(first.stderr).toContain(`${projectFile}: ignored, this project's hooks are not accepted`);
    expect(first.stderr).toContain("run `i trust`");
    expect(bodyText(rig, 0)).not.toContain("project-ctx");
    const trust = await runCliAsync(["trust", "--workspace", rig.workspace], rig.env);
    expect(trust.code).toBe(0);
    expect(trust.stdout).toContain("hook SessionStart: echo project-ctx");
    const second = await rig.run(["-p", "go"]);
    expect(second.stderr).toBe("");
    expect(bodyText(rig, 1)).toContain("project-ctx");
    // a change makes it untrusted again
    const other = {
      hooks: { SessionStart: [{ hooks: [{ type: "command", command: "echo other-ctx-zz" }] }] },
    };
    writeFileSync(projectFile, JSON.stringify(other));
    const third = await rig.run(["-p", "go"]);
    expect(third.stderr).toContain("ignored, this project's hooks are not accepted");
    expect(bodyText(rig, 2)).not.toContain("other-ctx-zz");
  });
});
