// ATIF trajectories of real sessions (the CLI against the mock model): tools with reasoning, an image a
// tool read, a sub-agent task, a compaction. Every export is checked twice: against schemas/atif.json
// with a JSON Schema validator (the shape, unknown fields refused) and against the contract's zod schema
// (the RFC's cross-field rules). `-p --trajectory` writes the same at the end of a run, and on SIGTERM.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import { AtifTrajectory } from "../../src/contract/atif.ts";
import { events, makeRig, type Rig } from "../agent/rig.ts";
import { makePng } from "../fixtures/images/png.ts";
import type { MockStep, RecordedRequest } from "../fixtures/mock-server/script.ts";
import { runCliAsync } from "../helpers/cli.ts";

const SCHEMA = JSON.parse(readFileSync(join(import.meta.dir, "..", "..", "schemas", "atif.json"), "utf8"));
const validateSchema = new Ajv2020({ strict: false, allErrors: true }).compile(SCHEMA);

/** Both checks; the first problem of either, for a readable failure. */
function problems(doc: unknown): string[] {
  const out: string[] = [];
  if (!validateSchema(doc))
    out.push(...(validateSchema.errors ?? []).map((e) => `schema ${e.instancePath} ${e.message}`));
  const z = AtifTrajectory.safeParse(doc);
  if (!z.success) out.push(...z.error.issues.map((i) => `rule ${i.path.join(".")} ${i.message}`));
  return out;
}

const PRICED = {
  models: {
    "mock-model": {
      context_window: 100_000,
      max_output_tokens: 4096,
      price: { input: 2, output: 10 },
      images: "keep",
    },
  },
};

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const isChild = (req: RecordedRequest) => JSON.stringify(req.body).includes("Your role: the");
const sent = (req: RecordedRequest, s: string) => JSON.stringify(req.body).includes(s);

/** The text of the last user message of a request (OpenAI wire). */
function lastUser(req: RecordedRequest): string {
  const messages = (req.body as { messages?: { role: string; content: unknown }[] }).messages ?? [];
  return JSON.stringify(messages.findLast((m) => m.role === "user")?.content ?? "");
}

/** Parent: read two files (thinking first), delegate, answer; later turns answer; the compaction summarises. */
function script(req: RecordedRequest): MockStep {
  if (isChild(req)) return { text: "child found 42", usage: { input_tokens: 500, output_tokens: 20 } };
  if (sent(req, "You are writing a handover summary"))
    return { text: "SUMMARY: the user read a.txt and logo.png; a task found 42." };
  const last = lastUser(req);
  if (last.includes("second question"))
    return { text: "second answer", usage: { input_tokens: 300, output_tokens: 5 } };
  // Long answers, so that a compaction has something to make smaller.
  const more = /more (\d)/.exec(last);
  if (more) return { text: `answer ${more[1]}: ${"lorem ipsum dolor ".repeat(150)}` };
  if (sent(req, "child found 42"))
    return { text: "all done", usage: { input_tokens: 200, output_tokens: 10 } };
  if (sent(req, "alpha"))
    return {
      tool_calls: [{ name: "task", arguments: { description: "find", prompt: "find 42", agent: "explore" } }],
      usage: { input_tokens: 150, output_tokens: 8 },
    };
  return {
    reasoning: "I should read both files first.",
    tool_calls: [
      { name: "read", arguments: { path: "a.txt" } },
      { name: "read", arguments: { path: "logo.png" } },
    ],
    usage: { input_tokens: 100, output_tokens: 12, cached_tokens: 40 },
  };
}

async function exported(id: string): Promise<Record<string, unknown>> {
  const r = await runCliAsync(["sessions", "--export", id, "--format", "atif"], (rig as Rig).env);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
}

type Step = Record<string, unknown> & { source: string; step_id: number };

describe("ATIF export", () => {
  test("a session with tools, reasoning, an image, a sub-agent and a compaction validates and says all of it", async () => {
    rig = await makeRig({
      config: PRICED,
      script,
      files: { "a.txt": "alpha\n", "logo.png": makePng(4, 4).toString("latin1") },
    });
    // makeRig writes text: put the real bytes in place.
    await Bun.write(join(rig.workspace, "logo.png"), makePng(4, 4));
    const first = await rig.run(["-p", "look at the files", "--json"]);
    expect(first.code).toBe(0);
    const id = events(first.stdout)[0]?.id as string;
    for (const n of [1, 2, 3]) expect((await rig.run(["-p", `more ${n}`, "-c"])).code).toBe(0);
    const c = await rig.run(["compact", "-r", id]);
    expect(c.stderr).toBe("");
    expect(c.code).toBe(0);
    expect((await rig.run(["-p", "second question", "-c"])).code).toBe(0);

    const t = await exported(id);
    expect(problems(t)).toEqual([]);
    expect(t).toMatchObject({ schema_version: "ATIF-v1.7", session_id: id, trajectory_id: id });
    expect(t.agent).toMatchObject({ name: "i", model_name: "mock-model" });
    const steps = t.steps as Step[];
    expect(steps[0]?.source).toBe("system");
    expect(steps[1]).toMatchObject({ source: "user", message: "look at the files" });
    const reading = steps.find((s) => (s.tool_calls as unknown[] | undefined)?.length === 2) as Step;
    expect(reading).toMatchObject({
      source: "agent",
      model_name: "mock-model",
      reasoning_content: "I should read both files first.",
      tool_calls: [
        { function_name: "read", arguments: { path: "a.txt" } },
        { function_name: "read", arguments: { path: "logo.png" } },
      ],
      metrics: {
        prompt_tokens: 100,
        completion_tokens: 12,
        cached_tokens: 40,
        cost_usd: (100 * 2 + 12 * 10) / 1e6,
      },
    });
    const results = (reading.observation as { results: Record<string, unknown>[] }).results;
    expect(results.map((r) => r.source_call_id)).toEqual(
      (reading.tool_calls as { tool_call_id: string }[]).map((c) => c.tool_call_id),
    );
    expect(JSON.stringify(results[0]?.content)).toContain("alpha");
    // The image the read tool returned, inline.
    const image = ((results[1]?.content ?? []) as Record<string, unknown>[]).find((p) => p.type === "image");
    expect(image).toMatchObject({ source: { media_type: "image/png" } });
    expect(String((image?.source as { path?: string } | undefined)?.path)).toStartWith(
      "data:image/png;base64,",
    );

    // The sub-agent: embedded, and referenced from the task call's observation.
    const subs = t.subagent_trajectories as Record<string, unknown>[];
    expect(subs.length).toBe(1);
    const sub = subs[0] as Record<string, unknown>;
    expect(sub.agent).toMatchObject({ name: "i", extra: { subagent: "explore", parent_session_id: id } });
    expect(JSON.stringify(sub.steps)).toContain("child found 42");
    const delegating = steps.find((s) => JSON.stringify(s.tool_calls ?? []).includes('"task"')) as Step;
    const ref = (delegating.observation as { results: Record<string, unknown>[] }).results[0];
    expect(ref?.subagent_trajectory_ref).toEqual([
      { trajectory_id: sub.trajectory_id, session_id: sub.session_id },
    ]);

    // The compaction: a system step naming what it summarised, after the messages it summarised.
    const compaction = steps.find(
      (s) => s.source === "system" && String(s.message).startsWith("Compaction 1"),
    );
    expect(compaction?.message).toMatch(/^Compaction 1 \(manual, model\): summarised \d+ earlier messages/);
    expect(String(compaction?.message)).toContain("SUMMARY: the user read a.txt");
    expect(steps.indexOf(compaction as Step)).toBeGreaterThan(steps.indexOf(delegating));
    expect(steps.at(-1)).toMatchObject({ source: "agent", message: "second answer" });

    // The totals: the parent's requests and the task's, each at its price.
    const f = t.final_metrics as Record<string, number>;
    expect(f.total_steps).toBe(steps.length);
    expect(f.total_prompt_tokens).toBeGreaterThanOrEqual(100 + 150 + 200 + 300 + 500);
    expect(f.total_cached_tokens).toBe(40);
    expect(typeof f.total_cost_usd).toBe("number");
  }, 60_000);

  test("-p --trajectory writes it when the run ends; --session-dir keeps the session there", async () => {
    rig = await makeRig({
      config: PRICED,
      script: [{ text: "hello", usage: { input_tokens: 9, output_tokens: 1 } }],
    });
    const file = join(rig.root, "trajectory.json");
    const logs = join(rig.root, "logs");
    const r = await rig.run(["-p", "hi", "--json", "--trajectory", file, "--session-dir", logs]);
    expect(r.code).toBe(0);
    const done = events(r.stdout).at(-1) as Record<string, unknown>;
    const t = JSON.parse(readFileSync(file, "utf8"));
    expect(problems(t)).toEqual([]);
    expect(t.session_id).toBe(done.session_id);
    expect(t.final_metrics).toMatchObject({ total_prompt_tokens: 9, total_completion_tokens: 1 });
    expect(existsSync(join(logs, done.session_id as string, "events.jsonl"))).toBe(true);
  }, 60_000);

  test("SIGTERM mid-run (a job timeout): exit 143, the trajectory and the session are written", async () => {
    rig = await makeRig({
      config: PRICED,
      files: { "a.txt": "alpha\n" },
      script: [
        {
          tool_calls: [{ name: "read", arguments: { path: "a.txt" } }],
          usage: { input_tokens: 50, output_tokens: 5 },
        },
        { text: "never finished", hang: true },
      ],
    });
    const file = join(rig.root, "t.json");
    const run = rig.start(["-p", "read it", "--trajectory", file]);
    const end = Date.now() + 20_000;
    while (rig.mock.requests.length < 2 && Date.now() < end) await Bun.sleep(50);
    expect(rig.mock.requests.length).toBe(2);
    run.child.kill("SIGTERM");
    const r = await run.done;
    expect(r.code).toBe(143);
    const t = JSON.parse(readFileSync(file, "utf8"));
    expect(problems(t)).toEqual([]);
    expect(JSON.stringify(t.steps)).toContain("alpha");
    expect(r.stderr).toContain(`session ${t.session_id} saved`);
  }, 30_000);

  test("bad --trajectory paths and flags: one line, exit 2", async () => {
    rig = await makeRig({ script: [] });
    const missing = await rig.run(["-p", "hi", "--trajectory", join(rig.root, "no", "such", "t.json")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--trajectory .*: the folder .* does not exist/);
    const noPrint = await rig.run(["--trajectory", "t.json"]);
    expect(noPrint.code).toBe(2);
    expect(noPrint.stderr).toContain("--trajectory goes with -p");
    expect(rig.mock.requests.length).toBe(0);
  }, 60_000);
});

describe("the checks reject what the RFC rejects", () => {
  const valid = () => ({
    schema_version: "ATIF-v1.7",
    session_id: "s",
    agent: { name: "i", version: "1" },
    steps: [
      { step_id: 1, source: "user", message: "hi" },
      {
        step_id: 2,
        source: "agent",
        message: "",
        tool_calls: [{ tool_call_id: "c1", function_name: "read", arguments: {} }],
        observation: { results: [{ source_call_id: "c1", content: "ok" }] },
      },
    ],
  });
  test("a valid one passes", () => expect(problems(valid())).toEqual([]));
  test("an unknown field", () => {
    const t = valid() as Record<string, unknown>;
    t.colour = "red";
    expect(problems(t).some((p) => p.startsWith("schema"))).toBe(true);
    expect(problems(t).some((p) => p.startsWith("rule"))).toBe(true);
  });
  test("step ids not from 1", () => {
    const t = valid();
    (t.steps[0] as { step_id: number }).step_id = 0;
    expect(problems(t).length).toBeGreaterThan(0);
    const u = valid();
    (u.steps[1] as { step_id: number }).step_id = 3;
    expect(problems(u)).toContain("rule steps.1.step_id expected step_id 2");
  });
  test("an observation naming a call of another step", () => {
    const t = valid();
    (t.steps[1] as { observation: { results: { source_call_id: string }[] } }).observation.results[0] = {
      source_call_id: "c9",
    };
    expect(problems(t).some((p) => p.includes("c9 is not a tool call of step 2"))).toBe(true);
  });
  test("tool calls on a user step; a sub-agent reference to nothing", () => {
    const t = valid();
    (t.steps[0] as Record<string, unknown>).tool_calls = [];
    expect(problems(t).some((p) => p.includes("tool_calls is for agent steps only"))).toBe(true);
    const u = valid();
    (u.steps[1] as { observation: { results: Record<string, unknown>[] } }).observation.results[0] = {
      source_call_id: "c1",
      subagent_trajectory_ref: [{ trajectory_id: "nowhere" }],
    };
    expect(problems(u).some((p) => p.includes("neither embedded"))).toBe(true);
  });
});
