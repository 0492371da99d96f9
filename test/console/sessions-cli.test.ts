// The console's session commands through the real CLI (input piped): /model recorded for -c, /new,
// /sessions, /resume N with its replay, and /cost's token counts.
import { afterEach, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { Session } from "../../src/session/session.ts";
import { makeRig, type Rig } from "../agent/rig.ts";
import { runCliAsync } from "../helpers/cli.ts";
import { TWO_MODELS } from "./two-models.ts";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const console = (r: Rig, input: string, args: string[] = [], flags = r.flags) =>
  runCliAsync([...args, ...flags], { ...r.env, NO_COLOR: "1" }, undefined, input);

const bodyOf = (r: Rig, i: number) => JSON.stringify(r.mock.requests[i]?.body);

/** The session directories of the rig's data dir (it also holds the steering queues). */
const sessionIds = (r: Rig) =>
  readdirSync(r.dataDir).filter((n) => existsSync(join(r.dataDir, n, "meta.json")));

/** The rig's flags without `-m`: a resumed session then runs with the model it recorded. */
const withoutModel = (r: Rig) => r.flags.filter((f, i) => f !== "-m" && r.flags[i - 1] !== "-m");

test("/model is recorded in the session: -c later resumes with the switched model", async () => {
  rig = await makeRig({
    script: [{ text: "first" }, { text: "second" }, { text: "third" }],
    config: TWO_MODELS,
  });
  expect((await console(rig, "hello\n/model other-model\nagain\n/exit\n")).code).toBe(0);
  const [id] = sessionIds(rig);
  const meta = JSON.parse(readFileSync(join(rig.dataDir, id ?? "", "meta.json"), "utf8"));
  expect(meta.model).toBe("other-model");
  expect(meta.provider).toBe("openai");
  const r = await console(rig, "once more\n/exit\n", ["-c"], withoutModel(rig));
  expect(r.code).toBe(0);
  expect(bodyOf(rig, 0)).toContain(`"model":"mock-model"`);
  expect(bodyOf(rig, 1)).toContain(`"model":"other-model"`);
  expect(bodyOf(rig, 2)).toContain(`"model":"other-model"`);
  expect(bodyOf(rig, 2)).toContain("hello");
}, 60_000);

test("the switched model is in the log too: a session whose meta.json is lost resumes with it", async () => {
  rig = await makeRig({
    script: [{ text: "first" }, { text: "second" }],
    config: TWO_MODELS,
  });
  expect((await console(rig, "hello\n/model other-model\n/exit\n")).code).toBe(0);
  const [id] = sessionIds(rig);
  rmSync(join(rig.dataDir, id ?? "", "meta.json"));
  const r = await console(rig, "again\n/exit\n", ["-c"], withoutModel(rig));
  expect(r.code).toBe(0);
  expect(bodyOf(rig, 1)).toContain(`"model":"other-model"`);
}, 60_000);

test("/new starts a fresh session, /sessions lists both, /resume N replays the chosen one", async () => {
  rig = await makeRig({
    script: [
      { text: "the first answer", usage: { input_tokens: 1000, output_tokens: 10 } },
      { text: "the second answer", usage: { input_tokens: 2000, output_tokens: 20 } },
      { text: "back in the first", usage: { input_tokens: 3000, output_tokens: 30 } },
    ],
  });
  const r = await console(
    rig,
    "first question\n/new\nsecond question\n/sessions\n/resume 2\nthird question\n/exit\n",
  );
  expect(r.code).toBe(0);
  const ids = sessionIds(rig);
  expect(ids).toHaveLength(2);
  const fresh = /› \/new\nnew session (\S+)/.exec(r.stdout)?.[1];
  expect(fresh && ids.includes(fresh)).toBe(true);
  const first = ids.find((id) => id !== fresh) ?? "";
  // The fresh session's first request carries none of the first session's exchange.
  expect(bodyOf(rig, 1)).toContain("second question");
  expect(bodyOf(rig, 1)).not.toContain("first question");
  // /sessions: newest first, the current one marked, each with its title and id.
  // (80 columns into a pipe: the current row's age, size and id go on an indented second line)
  expect(r.stdout).toMatch(/ {2}1\. second question \(this one\)\s+[^\n]*\d+ messages · /);
  expect(r.stdout).toMatch(/ {2}2\. first question {2}[^\n]*\d+ messages · /);
  expect(r.stdout).toContain(first);
  // /resume 2 switches back and replays that session's exchange; the next request continues it.
  expect(r.stdout).toContain(`resumed session ${first}`);
  const after = r.stdout.slice(r.stdout.indexOf("› /resume 2"));
  expect(after).toContain("› first question");
  expect(after).toContain("the first answer");
  expect(after).toContain("── resumed: the conversation continues here ──");
  const third = bodyOf(rig, 2);
  expect(third).toContain("first question");
  expect(third).toContain("third question");
  expect(third).not.toContain("second question");
  // The status line follows the session: its own title and tokens, none carried over from the other.
  expect(r.stdout).toContain("↑1.0k ↓10 · ask first · first question\n› /new");
  expect(r.stdout).toContain("↑2.0k ↓20 · ask first · second question\n› /sessions");
  expect(r.stdout).toContain("↑4.0k ↓40 · ask first · first question\n› /exit");
}, 60_000);

test("/cost shows the session's tokens in and out, and this run's per model", async () => {
  rig = await makeRig({
    script: [
      { text: "one", usage: { input_tokens: 1200, output_tokens: 34 } },
      { text: "two", usage: { input_tokens: 1300, output_tokens: 56 } },
    ],
  });
  const r = await console(rig, "a\nb\n/cost\n/exit\n");
  expect(r.code).toBe(0);
  expect(r.stdout).toContain("cost: unknown · 2500 tokens in · 90 out");
  expect(r.stdout).toContain("mock-model: 2 requests · 2500 in · 90 out · cost unknown");
  expect(r.stdout).toContain(
    'no price for mock-model: its requests are not in the cost; add "price" to its entry in config.json models',
  );
}, 60_000);

test("a console left without a message, and /new then /exit, leave no empty session behind", async () => {
  rig = await makeRig({ script: [{ text: "the only answer" }] });
  const ws = ["--workspace", rig.workspace];
  const listed = async () => (await runCliAsync(["sessions", ...ws], rig?.env)).stdout;
  expect((await console(rig, "/exit\n")).code).toBe(0);
  expect(sessionIds(rig)).toEqual([]);
  expect(await listed()).toContain("no sessions for workspace");
  const r = await console(rig, "hello there\n/new\n/exit\n");
  expect(r.code).toBe(0);
  const fresh = /› \/new\nnew session (\S+)/.exec(r.stdout)?.[1];
  expect(fresh).toBeDefined();
  // The session with a message stays, listed; the one /new opened and nothing was sent to is gone.
  const ids = sessionIds(rig);
  expect(ids).toHaveLength(1);
  expect(ids).not.toContain(fresh);
  const out = await listed();
  expect(out).toContain(ids[0] as string);
  expect(out).toContain("hello there");
  expect(out.trim().split("\n")).toHaveLength(2);
}, 60_000);

test("an empty session left on disk (its process was killed) is not listed and -c skips it", async () => {
  rig = await makeRig({ script: [{ text: "first answer" }, { text: "continued" }] });
  expect((await console(rig, "the real one\n/exit\n")).code).toBe(0);
  const [real] = sessionIds(rig) as [string];
  // What a console killed with -9 right after it started leaves: the session's start, nothing else.
  const empty = Session.create({ dataDir: rig.dataDir, workspace: rig.workspace, model: "mock-model" });
  expect(sessionIds(rig)).toHaveLength(2);
  const out = (await runCliAsync(["sessions", "--workspace", rig.workspace], rig.env)).stdout;
  expect(out).toContain(real);
  expect(out).not.toContain(empty.id);
  const c = await console(rig, "more\n/exit\n", ["-c"]);
  expect(c.stdout).toContain(`resumed session ${real}`);
  expect(bodyOf(rig, 1)).toContain("the real one");
  // Still reachable by id: nothing is deleted behind the user's back.
  const byId = await console(rig, "/exit\n", ["-r", empty.id]);
  expect(byId.code).toBe(0);
  expect(byId.stdout).toContain(`resumed session ${empty.id}`);
}, 60_000);
