// Workers get an allow-listed environment: never a credential, whatever the parent had.
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { BUILTIN_WORKER_ENV, INHERITED_VARS, workerEnv } from "../../src/worker/env.ts";
import { WorkerHost } from "../../src/worker/host.ts";
import { BUDGET_REPLY, BUN, MISBEHAVE, manifestOf, misbehaving, TempDirs } from "./helpers.ts";

const temp = new TempDirs();
const hosts: WorkerHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
});
afterAll(() => temp.cleanup());

const SECRETS = {
  OPENAI_API_KEY: "sk-test-openai-000000000000000000",
  ANTHROPIC_API_KEY: "sk-ant-test-000000000000000000",
  I_API_KEY: "sk-test-i-000000000000000000000",
  GITHUB_TOKEN: "ghp_000000000000000000000000000000",
  AWS_SECRET_ACCESS_KEY: "secret-aws",
};
const ALLOWED = new Set([...INHERITED_VARS, "I_CONFIG_DIR", "I_WORKSPACE", "I_DATA_DIR"]);

/** The environment a real worker process sees, reported by the env-dumping fixture. */
async function dumpedEnv(parentEnv: NodeJS.ProcessEnv | undefined) {
  const dir = temp.make();
  const h = new WorkerHost(manifestOf(["budget"], dir, { budget: misbehaving("budget", "env") }), {
    workspace: dir,
    configDir: dir,
    env: parentEnv,
  });
  hosts.push(h);
  const out = await h.runHook("budget", { ...BUDGET_REPLY, ...BUDGET_REPLY });
  return { env: out.env as Record<string, string>, dir };
}

function expectClean(env: Record<string, string>) {
  const dumped = JSON.stringify(env);
  for (const value of Object.values(SECRETS)) expect(dumped).not.toContain(value);
  for (const key of Object.keys(SECRETS)) expect(env[key]).toBeUndefined();
}

describe("worker environment", () => {
  test("credentials in an injected parent environment never reach the worker", async () => {
    const parent = { ...process.env, ...SECRETS, I_DATA_DIR: "/data/sessions" };
    const { env, dir } = await dumpedEnv(parent);
    expectClean(env);
    expect(env.I_WORKSPACE).toBe(dir);
    expect(env.I_CONFIG_DIR).toBe(dir);
    expect(env.I_DATA_DIR).toBe("/data/sessions");
    expect(env.PATH).toBe(process.env.PATH as string);
    const unexpected = Object.keys(env).filter((k) => !ALLOWED.has(k));
    expect(unexpected).toEqual([]);
  });

  test("credentials in the real process environment never reach the worker", async () => {
    const saved = Object.fromEntries(Object.keys(SECRETS).map((k) => [k, process.env[k]]));
    Object.assign(process.env, SECRETS);
    try {
      const { env } = await dumpedEnv(undefined);
      expectClean(env);
      expect(Object.keys(env).filter((k) => !ALLOWED.has(k))).toEqual([]);
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });

  test("the built-in worker process also gets the runtime's memory settings; a bound module does not", async () => {
    const dir = temp.make();
    // A built-in binding runs `SELF worker budget`: the fixture stands in for `i` and dumps its environment.
    const self = [BUN, MISBEHAVE, "--mode", "env"];
    const h = new WorkerHost(manifestOf(["budget"], dir, {}, self), {
      workspace: dir,
      configDir: dir,
      env: { ...process.env, ...SECRETS },
    });
    hosts.push(h);
    const env = (await h.runHook("budget", { ...BUDGET_REPLY })).env as Record<string, string>;
    expectClean(env);
    for (const [k, v] of Object.entries(BUILTIN_WORKER_ENV)) expect(env[k]).toBe(v);
    const extra = new Set(Object.keys(BUILTIN_WORKER_ENV));
    expect(Object.keys(env).filter((k) => !ALLOWED.has(k) && !extra.has(k))).toEqual([]);
    const bound = await dumpedEnv({ ...process.env });
    for (const k of Object.keys(BUILTIN_WORKER_ENV)) expect(bound.env[k]).toBeUndefined();
  });

  test("workerEnv: allow-list only; Windows names are matched case-insensitively", () => {
    const env = workerEnv({
      workspace: "/w",
      configDir: "/c",
      parent: {
        Path: "C:\\bin",
        SystemRoot: "C:\\Windows",
        windir: "C:\\Windows",
        OPENAI_API_KEY: "x",
        HOME: "/h",
      },
      platform: "win32",
    });
    expect(env).toEqual({
      Path: "C:\\bin",
      HOME: "/h",
      SystemRoot: "C:\\Windows",
      windir: "C:\\Windows",
      I_CONFIG_DIR: "/c",
      I_WORKSPACE: "/w",
      I_DATA_DIR: expect.any(String),
    });
    const posix = workerEnv({
      workspace: "/w",
      configDir: "/c",
      parent: { Path: "x", SYSTEMROOT: "y", TERM: "t" },
      platform: "linux",
    });
    expect(Object.keys(posix).sort()).toEqual(["I_CONFIG_DIR", "I_DATA_DIR", "I_WORKSPACE", "TERM"]);
  });
});
