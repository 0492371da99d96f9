// A new print run starts its first request's workers before it loads the agent, and setup takes that very
// process: one built-in worker started, before setup begins. A run that stops before setup takes it
// leaves no worker behind. Checked on the real `i -p`, through its startup marks and the worker log.
import { afterEach, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { alive, pollUntil } from "../helpers/procs.ts";
import { makeRig, type Rig } from "./rig.ts";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

/** The startup marks of a run's core, in order (`startup MS EPOCH STEP`). */
function marks(stderr: string): string[] {
  return [...stderr.matchAll(/^startup \S+ \S+ (.*)$/gm)].map((m) => m[1] as string);
}

test("the built-in worker starts once, ahead of setup, and setup uses it", async () => {
  rig = await makeRig({ script: [{ text: "hello back" }] });
  const r = await rig.run(["-p", "hello"], { I_DEBUG_STARTUP: "1" });
  expect(r.code).toBe(0);
  expect(r.stdout).toBe("hello back\n");
  const steps = marks(r.stderr);
  const spawns = steps.filter((s) => s.startsWith("worker spawn: ")).map((s) => s.slice(14));
  expect(spawns).toHaveLength(1);
  expect(spawns[0]?.split(",")).toContain("budget");
  expect(steps.indexOf(`worker spawn: ${spawns[0]}`)).toBeLessThan(steps.indexOf("setup"));
  expect(steps).toContain("first request");
}, 60_000);

test("--profile is the prestart's too: the budget profile's one worker, started once", async () => {
  rig = await makeRig({ script: [{ text: "hi" }] });
  const r = await rig.run(["-p", "--profile", "budget", "hello"], { I_DEBUG_STARTUP: "1" });
  expect(r.code).toBe(0);
  const spawns = marks(r.stderr)
    .filter((s) => s.startsWith("worker spawn: "))
    .map((s) => s.slice(14));
  expect(spawns).toHaveLength(1);
  expect(spawns[0]).not.toContain("prompts");
}, 60_000);

test("a run refused after the prestart (a file where the data directory goes) leaves no worker", async () => {
  rig = await makeRig({ script: [{ text: "never sent" }] });
  const notDir = join(rig.root, "not-a-dir");
  writeFileSync(notDir, "a file\n");
  const r = await rig.run(["-p", "hello"], { I_DATA_DIR: notDir });
  expect(r.code).toBe(2);
  expect(r.stderr).toContain(`i: I_DATA_DIR: ${notDir} is not a directory; set I_DATA_DIR to a directory\n`);
  expect(rig.mock.requests).toHaveLength(0);
  const log = readFileSync(join(rig.configDir, "logs", "builtin.log"), "utf8");
  const pid = Number(/started pid (\d+)/.exec(log)?.[1]);
  expect(pid).toBeGreaterThan(0);
  expect(await pollUntil(() => !alive(pid), 5_000)).toBe(true);
}, 60_000);
