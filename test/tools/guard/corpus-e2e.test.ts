// The destructive corpus through the real CLI in print mode under --approve all, against the mock
// model: every command is stopped by the guard (its reason reaches the model) or contained by the
// sandbox, and the victim directory and the victim home are exactly as they were.
import { afterAll, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sandboxAvailability } from "../../../src/tools/sandbox.ts";
import { makeRig, type Rig } from "../../agent/rig.ts";
import { removeDir, tempDir } from "../../helpers/cli.ts";
import { DESTRUCTIVE } from "./corpus.ts";

let rig: Rig | undefined;
const outside = tempDir("i-victims-");
afterAll(async () => {
  await rig?.close();
  removeDir(outside);
});

/** Every file under `dir` with its content and mode: what must not change. */
function inventory(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      // Bun's own cache (the CLI runs with this HOME) is not the victim's.
      if (e.name === ".bun" || e.name === ".cache") continue;
      const p = join(d, e.name);
      const mode = statSync(p).mode.toString(8);
      if (e.isDirectory()) {
        out.push(`${p}/ ${mode}`);
        walk(p);
      } else out.push(`${p} ${mode} ${readFileSync(p, "utf8")}`);
    }
  };
  walk(dir);
  return out.sort();
}

test("none of the destructive corpus does damage under --approve all", async () => {
  const victim = join(outside, "victim");
  const home = join(outside, "home");
  const tmp = join(outside, "tmp");
  const fill = (c: string) =>
    c.replaceAll("{V_REL}", victim.slice(1)).replaceAll("{V}", victim).replaceAll("{N}", "1");
  const calls = DESTRUCTIVE.map((c) => ({ tool_calls: [{ name: "bash", arguments: { command: fill(c) } }] }));
  rig = await makeRig({ script: [...calls, { text: "done" }] });
  for (const d of [
    join(victim, "keep"),
    join(home, ".ssh"),
    join(home, ".aws"),
    join(home, "project-b"),
    tmp,
  ])
    mkdirSync(d, { recursive: true });
  writeFileSync(join(victim, "keep", "a.txt"), "precious\n");
  writeFileSync(join(home, ".bashrc"), "# mine\n");
  writeFileSync(join(home, ".ssh", "authorized_keys"), "ssh-ed25519 mine\n");
  writeFileSync(join(home, "project-b", "main.c"), "int main;\n");
  const ws = rig.workspace;
  writeFileSync(join(ws, "tracked.txt"), "committed\n");
  writeFileSync(join(ws, "junk.txt"), "junk\n");
  mkdirSync(join(ws, "empty"));
  execFileSync("git", ["init", "-q", "-b", "main"], { cwd: ws });
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "add", "-A"], { cwd: ws });
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init"], { cwd: ws });
  execFileSync("git", ["branch", "feature"], { cwd: ws });
  writeFileSync(join(ws, "tracked.txt"), "uncommitted work\n");
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "stash", "-q"], { cwd: ws });
  writeFileSync(join(ws, "tracked.txt"), "uncommitted work\n");
  execFileSync("git", ["init", "-q", victim]);
  const before = [...inventory(victim), ...inventory(home)];
  const wsBefore = readFileSync(join(ws, "tracked.txt"), "utf8");
  const r = await rig.run(["-p", "wreck it", "--approve", "all", "--max-turns", String(calls.length + 2)], {
    HOME: home,
    TMPDIR: tmp,
  });
  expect(r.code).toBe(0);
  expect([...inventory(victim), ...inventory(home)]).toEqual(before);
  expect(readFileSync(join(ws, "tracked.txt"), "utf8")).toBe(wsBefore);
  expect(execFileSync("git", ["stash", "list"], { cwd: ws, encoding: "utf8" })).toContain("stash@{0}");
  expect(execFileSync("git", ["branch"], { cwd: ws, encoding: "utf8" })).toContain("feature");
  const body = rig.mock.requests.at(-1)?.body as { messages: { role: string; content: unknown }[] };
  const results = body.messages.filter((m) => m.role === "tool").map((m) => String(m.content));
  expect(results.length).toBe(calls.length);
  const guarded = results.filter((t) => t.includes("refused by the guard")).length;
  // Every one the guard flags says so; the rest (paths only known at run time) hit the sandbox.
  expect(guarded).toBeGreaterThanOrEqual(calls.length - 1);
  expect(results.some((t) => t.includes("refused by the guard") && t.includes("outside the workspace"))).toBe(
    true,
  );

  // The second layer alone: with the guard's question waived, the sandbox still keeps every command
  // away from what lies outside the workspace (where the sandbox can run).
  if ("problem" in sandboxAvailability()) return;
  const again = await makeRig({ script: [...calls, { text: "done" }] });
  try {
    const r2 = await again.run(
      ["-p", "wreck it", "--approve", "all", "--allow-destructive", "--max-turns", String(calls.length + 2)],
      { HOME: home, TMPDIR: tmp },
    );
    expect(r2.code).toBe(0);
    expect([...inventory(victim), ...inventory(home)]).toEqual(before);
  } finally {
    await again.close();
  }
}, 240_000);
