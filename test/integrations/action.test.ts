// The GitHub Action end to end, run as the runner runs it (the committed bundle under node, inputs as
// INPUT_* variables) and through @github/local-action (GitHub's local runner for actions, on the source),
// against the mock model and a local mock of the GitHub REST API: outputs, the step summary, the sticky
// comment created then edited, failures annotated, a comment that cannot be posted, a job timeout's
// SIGTERM, and bad inputs as one ::error line naming the input.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { AtifTrajectory } from "../../src/contract/atif.ts";
import { makeRig, type Rig } from "../agent/rig.ts";
import type { MockScriptSource } from "../fixtures/mock-server/index.ts";
import { type ActionSetup, iWrapper, runBundled, runLocalAction } from "./action-rig.ts";
import { type GithubMock, startGithubMock } from "./github-api-mock.ts";

const KEY = "sk-test-key-not-real-0000000000";
const PRICED = {
  models: {
    "mock-model": { context_window: 100_000, max_output_tokens: 4096, price: { input: 2, output: 10 } },
  },
};

let rig: Rig | undefined;
let github: GithubMock | undefined;
afterEach(async () => {
  github?.close();
  github = undefined;
  await rig?.close();
  rig = undefined;
});

const READ_THEN_ANSWER: MockScriptSource = [
  {
    tool_calls: [{ name: "read", arguments: { path: "a.txt" } }],
    usage: { input_tokens: 100, output_tokens: 10 },
  },
  { text: "the file says alpha", usage: { input_tokens: 200, output_tokens: 5 } },
];

async function setup(
  script: MockScriptSource,
  inputs: Record<string, string> = {},
  gh: Parameters<typeof startGithubMock>[0] = {},
): Promise<ActionSetup> {
  rig = await makeRig({ config: PRICED, files: { "a.txt": "alpha\n" }, script });
  github = startGithubMock(gh);
  return {
    rig,
    github,
    inputs: {
      prompt: "read a.txt",
      model: "mock-model",
      base_url: rig.mock.url,
      api_key: KEY,
      i_path: iWrapper(rig.root),
      comment: "sticky",
      github_token: "ghs_fake_token",
      ...inputs,
    },
  };
}

const dir = () => join((rig as Rig).root, "step");
const errors = (stdout: string) => stdout.split("\n").filter((l) => l.startsWith("::error::"));

describe("the bundled action (dist/index.js under node)", () => {
  test("a run: outputs, step summary, sticky comment created then edited, key masked", async () => {
    const s = await setup(READ_THEN_ANSWER);
    const r = await runBundled(s, dir());
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(errors(r.stdout)).toEqual([]);
    expect(r.outputs).toMatchObject({
      final_message: "the file says alpha",
      exit_code: "0",
      cost_usd: "0.00075",
    });
    expect(r.outputs.session_id).toMatch(/^\d{8}T/);
    // The execution file is the NDJSON stream; the trajectory is valid ATIF of the same session.
    const events = readFileSync(r.outputs.execution_file as string, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(events.at(-1)).toMatchObject({ type: "done", session_id: r.outputs.session_id });
    const t = JSON.parse(readFileSync(r.outputs.trajectory_file as string, "utf8"));
    expect(AtifTrajectory.safeParse(t).success).toBe(true);
    expect(t.session_id).toBe(r.outputs.session_id);
    // A readable log: the tool call, the total; the key only in the mask command.
    expect(r.stdout).toContain("▸ read a.txt");
    expect(r.stdout).toContain("done: 2 model requests, $0.0008");
    expect(r.stdout).toContain(`::add-mask::${KEY}`);
    expect(r.stdout.split(KEY).length).toBe(2);
    // The step summary is the session's Markdown export.
    expect(r.summary).toContain("# read a.txt");
    expect(r.summary).toContain("the file says alpha");
    // The sticky comment: looked for, created at the start, edited to the final answer and cost.
    const calls = (github as GithubMock).calls.map((c) => `${c.method} ${c.path}`);
    expect(calls[0]).toBe("GET /repos/octo/repo/issues/7/comments");
    expect(calls[1]).toBe("POST /repos/octo/repo/issues/7/comments");
    expect(calls.at(-1)).toMatch(/^PATCH \/repos\/octo\/repo\/issues\/comments\/\d+$/);
    expect((github as GithubMock).calls.every((c) => c.auth === "token ghs_fake_token")).toBe(true);
    const [body] = [...(github as GithubMock).comments.values()];
    expect((github as GithubMock).comments.size).toBe(1);
    expect(body).toStartWith("<!-- i-action:sticky -->\nthe file says alpha\n");
    expect(body).toContain(`$0.0008 · 2 model requests · session \`${r.outputs.session_id}\``);
    // i never saw the GitHub token: it is not in anything the model was sent.
    expect(JSON.stringify((rig as Rig).mock.requests)).not.toContain("ghs_fake_token");
  }, 60_000);

  test("an earlier run's sticky comment is edited, not a second one added", async () => {
    const s = await setup(READ_THEN_ANSWER, {}, { existing: "<!-- i-action:sticky -->\nold answer" });
    const r = await runBundled(s, dir());
    expect(r.code).toBe(0);
    expect((github as GithubMock).calls.some((c) => c.method === "POST")).toBe(false);
    expect([...(github as GithubMock).comments.values()]).toEqual([
      expect.stringContaining("the file says alpha") as unknown as string,
    ]);
  }, 60_000);

  test("a comment that cannot be posted: one warning, the run still succeeds", async () => {
    const s = await setup(READ_THEN_ANSWER, {}, { failWith: 403 });
    const r = await runBundled(s, dir());
    expect(r.code).toBe(0);
    expect(r.outputs.final_message).toBe("the file says alpha");
    const warnings = r.stdout.split("\n").filter((l) => l.startsWith("::warning::"));
    expect(warnings.length).toBe(1);
    expect(warnings[0]).toContain("comment: cannot post the comment on #7 (HTTP 403)");
    expect(warnings[0]).toContain("the run goes on without it");
  }, 60_000);

  test("a failed run fails the step with i's error line as an ::error annotation", async () => {
    const s = await setup([{ error: "auth" }], { comment: "off" });
    const r = await runBundled(s, dir());
    expect(r.code).toBe(1);
    expect(r.outputs.exit_code).toBe("1");
    const e = errors(r.stdout);
    expect(e.length).toBe(1);
    expect(e[0]).toMatch(/^::error::.*(auth|API key|401)/i);
    expect((github as GithubMock).calls.length).toBe(0);
  }, 60_000);

  test("killed by the job's timeout (SIGTERM): the trajectory and session are written, the step says so", async () => {
    const s = await setup(
      [
        {
          tool_calls: [{ name: "read", arguments: { path: "a.txt" } }],
          usage: { input_tokens: 50, output_tokens: 5 },
        },
        { text: "never finished", hang: true },
      ],
      { comment: "off" },
    );
    let pid = 0;
    const running = runBundled(s, dir(), (p) => {
      pid = p;
    });
    const end = Date.now() + 30_000;
    while ((rig as Rig).mock.requests.length < 2 && Date.now() < end) await Bun.sleep(50);
    process.kill(pid, "SIGTERM");
    const r = await running;
    expect(r.outputs.exit_code).toBe("143");
    expect(existsSync(r.outputs.trajectory_file as string)).toBe(true);
    const t = JSON.parse(readFileSync(r.outputs.trajectory_file as string, "utf8"));
    expect(AtifTrajectory.safeParse(t).success).toBe(true);
    expect(JSON.stringify(t.steps)).toContain("alpha");
    expect(existsSync(join(dir(), "runner-temp"))).toBe(true);
    expect(errors(r.stdout)[0]).toContain("i was stopped (SIGTERM");
    expect(r.summary).toContain("read a.txt");
  }, 60_000);

  test("bad inputs: one ::error line naming the input, nothing run", async () => {
    for (const [inputs, want] of [
      [{ model: "" }, "::error::model: no model given; set the model input"],
      [{ api_key: "" }, "::error::api_key: no API key; set the api_key input from a secret"],
      [{ prompt: "", prompt_file: "task.md" }, "::error::prompt_file: task.md does not exist"],
      [{ approve: "maybe" }, '::error::approve: "maybe" is not one of none, edits, all'],
    ] as const) {
      const s = await setup([], inputs);
      const r = await runBundled(s, dir());
      expect(r.code).toBe(1);
      expect(errors(r.stdout)).toEqual([expect.stringContaining(want) as unknown as string]);
      expect((rig as Rig).mock.requests.length).toBe(0);
      github?.close();
      await rig?.close();
      rig = undefined;
      github = undefined;
    }
  }, 60_000);
});

describe("through @github/local-action", () => {
  test("outputs set, summary written, sticky comment created then edited", async () => {
    const s = await setup(READ_THEN_ANSWER);
    const r = await runLocalAction(s, dir());
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain("::error::");
    expect(r.outputs).toMatchObject({
      final_message: "the file says alpha",
      exit_code: "0",
      cost_usd: "0.00075",
    });
    expect(existsSync(r.outputs.trajectory_file as string)).toBe(true);
    expect(r.summary).toContain("the file says alpha");
    const calls = (github as GithubMock).calls.map((c) => c.method);
    expect(calls.slice(0, 2)).toEqual(["GET", "POST"]);
    expect(calls.at(-1)).toBe("PATCH");
    expect([...(github as GithubMock).comments.values()][0]).toContain("$0.0008");
  }, 120_000);

  test("a failed run is annotated", async () => {
    const s = await setup([{ error: "auth" }], { comment: "off" });
    const r = await runLocalAction(s, dir());
    expect(r.outputs.exit_code).toBe("1");
    expect(r.stdout).toMatch(/::error::.*(auth|API key|401)/i);
  }, 120_000);
});
