// Long and resumed sessions: no default turn cap stops a healthy session; -c, -r and `i compact` continue
// with the provider and model the session recorded; `i compact` with a local compactor needs no key.
import { afterEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, savedSessionIds, startProgram } from "../helpers/cli.ts";
import { makeRig, type Rig } from "./rig.ts";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const modelOf = (r: Rig, i: number) => (r.mock.requests[i]?.body as { model?: string } | undefined)?.model;
/** Every key variable emptied: this run must not need one. */
const NO_KEYS = { OPENAI_API_KEY: "", ANTHROPIC_API_KEY: "", I_API_KEY: "", I_MODEL: "", I_PROVIDER: "" };

describe("no default turn cap", () => {
  test("a 300-turn session finishes; --max-turns stays an opt-in", async () => {
    const turns = 300;
    rig = await makeRig({
      script: (_req, i) =>
        i === turns ? { text: "all done" } : { tool_calls: [{ name: "read", arguments: { path: "a.txt" } }] },
      files: { "a.txt": "x\n" },
      contextWindow: 1_000_000,
    });
    const r = await rig.run(["-p", "go", "--approve", "all"]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("all done\n");
    expect(r.code).toBe(0);
    expect(rig.mock.requests).toHaveLength(turns + 1);
    const capped = await rig.run(["-p", "again", "--max-turns", "3"]);
    expect(capped.code).toBe(1);
    expect(rig.mock.requests).toHaveLength(turns + 4);
  }, 120_000);
});

describe("resuming keeps the session's provider and model", () => {
  test("-c and -r without -m/--provider; -m still overrides", async () => {
    rig = await makeRig({
      script: (_req, i) => ({ text: `reply ${i}` }),
      provider: "anthropic",
      model: "claude-mock",
    });
    const r0 = rig;
    const first = await r0.run(["-p", "start"]);
    expect(first.code).toBe(0);
    const [id] = savedSessionIds(r0.dataDir);
    // Only the base URL and workspace: no -m, no --provider (I_MODEL set to something else must not win).
    const bare = ["--base-url", r0.mock.url, "--workspace", r0.workspace];
    const env = { ...process.env, ...r0.env, I_MODEL: "gpt-4o" };
    const resume = (args: string[]) =>
      startProgram(process.execPath, [join(ROOT, "src/cli/main.ts"), ...args, ...bare], { env }).done;
    const c = await resume(["-p", "-c", "two"]);
    expect(c.stderr).toBe("");
    expect(c.stdout).toBe("reply 1\n");
    const r = await resume(["-p", "-r", id as string, "three"]);
    expect(r.stdout).toBe("reply 2\n");
    expect(r0.mock.requests.map((q) => q.format)).toEqual(["anthropic", "anthropic", "anthropic"]);
    expect([0, 1, 2].map((i) => modelOf(r0, i))).toEqual(["claude-mock", "claude-mock", "claude-mock"]);
    writeFileSync(
      join(r0.configDir, "config.json"),
      JSON.stringify({
        models: { "claude-mock": { context_window: 100000 }, "claude-other": { context_window: 100000 } },
      }),
    );
    const m = await resume(["-p", "-c", "four", "-m", "claude-other"]);
    expect(m.stderr).toBe("");
    expect(modelOf(r0, 3)).toBe("claude-other");
  }, 60_000);
});

describe("i compact with a local compactor", () => {
  test("no key, no -m: the session's model, a local summary, no request", async () => {
    rig = await makeRig({ script: (_req, i) => ({ text: `long answer number ${i} `.repeat(150) }) });
    const r0 = rig;
    const ids: string[] = [];
    for (const _ of [0, 1]) {
      for (const p of ["one", "two", "three", "four", "five", "six"])
        expect((await r0.run(["-p", ...(p === "one" ? [] : ["-c"]), p])).code).toBe(0);
      ids.push(savedSessionIds(r0.dataDir).find((id) => !ids.includes(id)) as string);
    }
    const compactor = join(ROOT, "examples", "python-compactor", "compactor.py");
    writeFileSync(
      join(r0.configDir, "bindings.json"),
      JSON.stringify({ compact: { exec: ["/usr/bin/python3", compactor, "--keep", "2"] } }),
    );
    const before = r0.mock.requests.length;
    const env = { ...process.env, ...r0.env, ...NO_KEYS };
    const launchers = [
      [process.execPath, join(ROOT, "src/cli/main.ts"), "compact"],
      ["sh", join(ROOT, "scripts", "start.sh"), "compact"],
    ];
    for (const [n, launcher] of launchers.entries()) {
      const [prog, ...args] = launcher as [string, ...string[]];
      const r = await startProgram(prog, [...args, "-r", ids[n] as string, "--workspace", r0.workspace], {
        env,
      }).done;
      expect(r.stderr).toBe("");
      expect(r.stdout).toContain("(local summary)");
      expect(r.code).toBe(0);
    }
    expect(r0.mock.requests.length).toBe(before);
  }, 60_000);

  test("the built-in compactor needs a model request: without a key, one line and nothing committed", async () => {
    rig = await makeRig({ script: (_req, i) => ({ text: `long answer number ${i} `.repeat(20) }) });
    const r0 = rig;
    for (const p of ["one", "two", "three", "four"])
      expect((await r0.run(["-p", ...(p === "one" ? [] : ["-c"]), p])).code).toBe(0);
    const before = r0.mock.requests.length;
    const r = await startProgram(
      process.execPath,
      [
        join(ROOT, "src/cli/main.ts"),
        "compact",
        "--workspace",
        r0.workspace,
        "--base-url",
        "https://example.invalid/v1",
      ],
      { env: { ...process.env, ...r0.env, ...NO_KEYS } },
    ).done;
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain('no API key for provider "openai"');
    expect(r0.mock.requests.length).toBe(before);
  }, 60_000);
});
