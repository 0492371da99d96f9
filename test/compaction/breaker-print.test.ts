// Print mode says the breaker's two changes on one channel: its pause is a line on stderr, and so is its
// reset when the compactor changed since (a resumed session whose failures were another compactor's).
import { afterEach, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeRig, type Rig } from "../agent/rig.ts";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

function metaFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return metaFiles(p);
    return name === "meta.json" ? [p] : [];
  });
}

test("print mode: the breaker's reset after a compactor change is on stderr, as its pause is", async () => {
  rig = await makeRig({ script: [{ text: "first" }, { text: "second" }] });
  const first = await rig.run(["-p", "hello"]);
  expect(first.code).toBe(0);
  const [file] = metaFiles(rig.dataDir);
  if (!file) throw new Error("the run left no meta.json");
  const meta = JSON.parse(readFileSync(file, "utf8"));
  // Paused after three failures, counted against a compactor this configuration does not have.
  meta.compaction = { armed: false, failures: 3, compactor: "another-compactor" };
  writeFileSync(file, JSON.stringify(meta));
  const r = await rig.run(["-p", "-c", "again"]);
  expect(r.code).toBe(0);
  expect(r.stdout).toContain("second");
  expect(r.stderr).toContain("i: the compactor changed");
  expect(r.stderr).toContain("it is on again");
}, 60_000);
