// `-r ID` runs the session in its own workspace: from another directory it says so, an explicit
// --workspace that differs is refused, and a workspace that is gone is one clear line.
import { afterEach, expect, test } from "bun:test";
import { mkdirSync, realpathSync, renameSync } from "node:fs";
import { join } from "node:path";
import { runCliAsync, savedSessionIds } from "../helpers/cli.ts";
import { makeRig, type Rig } from "./rig.ts";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

/** --base-url, -m and --provider of the rig, without its --workspace. */
function targetFlags(r: Rig): string[] {
  const i = r.flags.indexOf("--workspace");
  return [...r.flags.slice(0, i), ...r.flags.slice(i + 2)];
}

async function firstSession(r: Rig): Promise<string> {
  const first = await r.run(["-p", "hello"]);
  expect(first.code).toBe(0);
  const [id] = savedSessionIds(r.dataDir);
  return id as string;
}

test("-r from another directory runs the tools in the session's workspace and says so", async () => {
  rig = await makeRig({
    script: [
      { text: "hi" },
      { tool_calls: [{ name: "bash", arguments: { command: "pwd" } }] },
      { text: "done" },
    ],
  });
  const id = await firstSession(rig);
  const elsewhere = join(rig.root, "elsewhere");
  mkdirSync(elsewhere);
  const r = await runCliAsync(
    ["-p", "where are you", "-r", id, "--approve", "all", ...targetFlags(rig)],
    rig.env,
    elsewhere,
  );
  expect(r.code).toBe(0);
  const ws = realpathSync(rig.workspace);
  expect(r.stderr).toBe(
    `i: resumed session ${id} of workspace ${ws} (not the current directory ${realpathSync(elsewhere)}): its tools run in ${ws}\n`,
  );
  expect(JSON.stringify(rig.mock.requests[2]?.body)).toContain(`${ws}\\n[exit code 0]`);
}, 60_000);

test("-r with a different --workspace is refused with one line", async () => {
  rig = await makeRig({ script: [{ text: "hi" }] });
  const id = await firstSession(rig);
  const other = join(rig.root, "other");
  mkdirSync(other);
  const r = await runCliAsync(["-p", "x", "-r", id, ...targetFlags(rig), "--workspace", other], rig.env);
  expect(r.code).toBe(2);
  expect(r.stderr).toBe(
    `i: --workspace: session ${id} belongs to workspace ${realpathSync(rig.workspace)}, not ${other}; leave out --workspace to resume it where it belongs\n`,
  );
  expect(rig.mock.requests).toHaveLength(1);
}, 60_000);

test("-r of a session whose workspace is gone is one line, exit 2, no request", async () => {
  rig = await makeRig({ script: [{ text: "hi" }] });
  const id = await firstSession(rig);
  const ws = realpathSync(rig.workspace);
  renameSync(rig.workspace, `${rig.workspace}-moved`);
  const r = await runCliAsync(["-p", "x", "-r", id, ...targetFlags(rig)], rig.env, rig.root);
  expect(r.code).toBe(2);
  expect(r.stderr).toBe(
    `i: session ${id}: its workspace ${ws} no longer exists; restore it, or start a new session with \`i\`\n`,
  );
  expect(rig.mock.requests).toHaveLength(1);
}, 60_000);
