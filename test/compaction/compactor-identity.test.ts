// The compactor's fingerprint: the same for the built-in module whatever executable runs it, different
// for another binding, and different when the built-in module's compact.json or prompt changes.
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compactorIdentity } from "../../src/compaction/compactor-identity.ts";
import type { Manifest } from "../../src/contract/manifest.ts";

const dir = mkdtempSync(join(tmpdir(), "i-compactor-id-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function manifest(exec: string[], builtin: boolean): Manifest {
  const ref = { module: "compact", exec, cwd: dir, builtin };
  return {
    protocol: 1,
    profile: "compact",
    config_dir: dir,
    modules: [],
    hooks: { compact_plan: [ref], before_compact: [ref], after_compact: [ref], before_compact_commit: [ref] },
    tools: {},
  } as Manifest;
}

test("built-in: the executable's path does not matter; its configuration does", () => {
  const a = compactorIdentity(manifest(["/usr/bin/i", "worker", "compact"], true), dir);
  expect(compactorIdentity(manifest(["/home/u/src/i", "worker", "compact"], true), dir)).toBe(a);
  writeFileSync(join(dir, "compact.json"), JSON.stringify({ keep_recent: 6 }));
  const b = compactorIdentity(manifest(["/usr/bin/i", "worker", "compact"], true), dir);
  expect(b).not.toBe(a);
  mkdirSync(join(dir, "prompts"), { recursive: true });
  writeFileSync(join(dir, "prompts", "c.txt"), "summarise");
  writeFileSync(join(dir, "compact.json"), JSON.stringify({ keep_recent: 6, prompt: "prompts/c.txt" }));
  const c = compactorIdentity(manifest(["/usr/bin/i", "worker", "compact"], true), dir);
  writeFileSync(join(dir, "prompts", "c.txt"), "summarise, keeping every file name");
  expect(compactorIdentity(manifest(["/usr/bin/i", "worker", "compact"], true), dir)).not.toBe(c);
});

test("bound: another program or argument is another compactor", () => {
  const a = compactorIdentity(manifest(["/opt/my-compactor", "--fast"], false), dir);
  expect(compactorIdentity(manifest(["/opt/my-compactor", "--fast"], false), dir)).toBe(a);
  expect(compactorIdentity(manifest(["/opt/my-compactor", "--slow"], false), dir)).not.toBe(a);
});
