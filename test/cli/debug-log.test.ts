// The debug log (consola behind it), as a user turns it on: I_LOG_LEVEL=debug writes worker starts, hook
// timings and compaction decisions to config_dir/logs/i.log; --verbose in print mode writes them to stderr
// too; a bad level is one line and exit 2; without either, no log file is written.
import { afterEach, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { makeRig, type Rig } from "../agent/rig.ts";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const logFile = (r: Rig) => join(r.configDir, "logs", "i.log");

test("I_LOG_LEVEL=debug writes worker starts, hook timings and compaction decisions to the log file", async () => {
  rig = await makeRig({ script: [{ error: "server" }, { text: "hello back" }] });
  const r = await rig.run(["-p", "hello"], { I_LOG_LEVEL: "debug" });
  expect(r.code).toBe(0);
  expect(r.stdout).toBe("hello back\n");
  // The file only: stderr carries what it always does (the retry line), no debug lines.
  expect(r.stderr).not.toContain("[worker]");
  const text = readFileSync(logFile(rig), "utf8");
  expect(text).toMatch(/debug \[worker\] \S+ started, ready in [\d.]+ ms/);
  expect(text).toMatch(/debug \[hook\] \w+ \w+: [\d.]+ ms/);
  expect(text).toMatch(/debug \[compaction\] \d+\/\d+ tokens, recommendation \w+: /);
  expect(text).toMatch(/debug \[retry\] attempt 1 in \d+ ms: /);
}, 60_000);

test("--verbose in print mode writes the debug lines to stderr too", async () => {
  rig = await makeRig({ script: [{ text: "hi" }] });
  const r = await rig.run(["-p", "--verbose", "hello"]);
  expect(r.code).toBe(0);
  expect(r.stdout).toBe("hi\n");
  expect(r.stderr).toMatch(/^i: debug \[worker\] /m);
  expect(existsSync(logFile(rig))).toBe(true);
}, 60_000);

test("no log unless asked; a bad I_LOG_LEVEL is one line and exit 2", async () => {
  rig = await makeRig({ script: [{ text: "hi" }] });
  const quiet = await rig.run(["-p", "hello"]);
  expect(quiet.code).toBe(0);
  expect(existsSync(logFile(rig))).toBe(false);
  const bad = await rig.run(["-p", "hello"], { I_LOG_LEVEL: "loud" });
  expect(bad.code).toBe(2);
  expect(bad.stderr).toBe(
    'i: I_LOG_LEVEL: "loud" is not a level; use one of error, warn, info, debug (or unset it)\n',
  );
}, 60_000);
