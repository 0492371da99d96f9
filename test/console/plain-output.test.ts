// When stdout is not a terminal: plain text, no escape sequence at all — even in CI, where colour
// libraries force colour on.
import { afterEach, expect, test } from "bun:test";
import { makeRig, type Rig } from "../agent/rig.ts";
import { runCliAsync } from "../helpers/cli.ts";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const ESC = String.fromCharCode(0x1b);

test("the console into a pipe writes no escapes, with colour forced by CI", async () => {
  rig = await makeRig({
    script: [
      {
        text: "**bold** and `code`\n\n```ts\nconst a = 1;\n```",
        tool_calls: [{ name: "bash", arguments: { command: "printf 'a\\033[31mb\\n'" } }],
      },
      { text: "done" },
    ],
  });
  const r = await runCliAsync(
    ["hi", ...rig.flags, "--approve", "all"],
    { ...rig.env, CI: "true", FORCE_COLOR: "1" },
    undefined,
    "/exit\n",
  );
  expect(r.code).toBe(0);
  expect(r.stdout).not.toContain(ESC);
  expect(r.stdout).toContain("bold and code");
  expect(r.stdout).toContain("a\\e[31mb");
});

test("--help of every command into a pipe has no colour", async () => {
  for (const cmd of [[], ["run"], ["sessions"], ["doctor"], ["compact"], ["init"], ["worker"], ["start"]]) {
    const r = await runCliAsync([...cmd, "--help"], { CI: "true", FORCE_COLOR: "1" });
    expect(r.stdout.length).toBeGreaterThan(0);
    expect(r.stdout).not.toContain(ESC);
  }
});
