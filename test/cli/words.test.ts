// Words on the command line as people type them: an unquoted prompt is one prompt, and a word or value a
// command has no place for is a usage error (exit 2, one line) instead of being silently dropped.
import { afterEach, expect, test } from "bun:test";
import { events, makeRig, type Rig } from "../agent/rig.ts";
import { runCli } from "../helpers/cli.ts";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

test("i -p fix the bug (no quotes) sends the whole sentence, not just 'fix'", async () => {
  rig = await makeRig({ script: [{ text: "on it" }] });
  const r = await rig.run(["-p", "fix", "the", "bug", "--json"]);
  expect(r.code).toBe(0);
  expect(JSON.stringify(rig.mock.requests[0]?.body)).toContain('"content":"fix the bug"');
  expect(events(r.stdout).at(-1)).toMatchObject({ type: "done", text: "on it" });
}, 60_000);

test.each([
  [["sessions", "extra"], 'i sessions: unexpected argument "extra" (it takes none); see `i sessions --help`'],
  [["init", "now"], 'i init: unexpected argument "now" (it takes none); see `i init --help`'],
  [["worker", "budget", "prompts"], 'i worker: unexpected argument "prompts"; see `i worker --help`'],
  [
    ["doctor", "--online=yes"],
    "i doctor: flag --online takes no value (it is on when given); see `i doctor --help`",
  ],
  [["-p=1", "hi"], "i: flag -p takes no value (it is on when given); see `i --help`"],
])("i %p: one line, exit 2", (args, line) => {
  const r = runCli(args as string[]);
  expect(r.stderr).toBe(`${line}\n`);
  expect(r.stdout).toBe("");
  expect(r.code).toBe(2);
});
