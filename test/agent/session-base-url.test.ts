// A resumed session (-c, -r, i compact) goes back to the server it ran against: the base URL is recorded
// next to provider and model, an explicit --base-url still wins, and a URL with credentials is never
// recorded (it is refused before a session exists).
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { startMockServer } from "../fixtures/mock-server/index.ts";
import { ROOT, savedSessionIds, startProgram } from "../helpers/cli.ts";
import { makeRig, type Rig } from "./rig.ts";

let rig: Rig | undefined;
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await rig?.close();
  rig = undefined;
  for (const c of cleanups.splice(0)) await c();
});

/** No key anywhere and no I_BASE_URL: a run that forgot the local base URL stops with "no API key". */
const BARE = { OPENAI_API_KEY: "", I_API_KEY: "", I_BASE_URL: "", I_MODEL: "", I_PROVIDER: "" };

function runBare(r: Rig, args: string[]) {
  const env = { ...process.env, ...r.env, ...BARE };
  return startProgram(
    process.execPath,
    [join(ROOT, "src/cli/main.ts"), ...args, "--workspace", r.workspace],
    {
      env,
    },
  ).done;
}

const metaOf = (r: Rig, id: string) =>
  JSON.parse(readFileSync(join(r.dataDir, id, "meta.json"), "utf8")) as Record<string, unknown>;

describe("resuming keeps the session's base URL", () => {
  test("-c and -r without --base-url reach the same server; an explicit --base-url wins", async () => {
    rig = await makeRig({ script: (_req, i) => ({ text: `reply ${i}` }) });
    const r0 = rig;
    expect((await r0.run(["-p", "start"])).code).toBe(0);
    const [id] = savedSessionIds(r0.dataDir) as [string];
    expect(metaOf(r0, id).base_url).toBe(r0.mock.url);
    const c = await runBare(r0, ["-p", "-c", "more"]);
    expect(c.stderr).toBe("");
    expect(c.stdout).toBe("reply 1\n");
    const r = await runBare(r0, ["-p", "-r", id, "again"]);
    expect(r.stdout).toBe("reply 2\n");
    expect(r0.mock.requests.map((q) => (q.body as { model?: string }).model)).toEqual([
      "mock-model",
      "mock-model",
      "mock-model",
    ]);

    const other = await startMockServer({ script: () => ({ text: "from the other server" }) });
    cleanups.push(() => other.close());
    const o = await runBare(r0, ["-p", "-c", "elsewhere", "--base-url", other.url]);
    expect(o.stderr).toBe("");
    expect(o.stdout).toBe("from the other server\n");
    expect(other.requests).toHaveLength(1);
    expect(r0.mock.requests).toHaveLength(3);

    // meta.json is a cache: one rebuilt from events.jsonl keeps the base URL too.
    rmSync(join(r0.dataDir, id, "meta.json"));
    const rebuilt = await runBare(r0, ["-p", "-c", "after rebuild"]);
    expect(rebuilt.stderr).toBe("");
    expect(r0.mock.requests).toHaveLength(4);
  }, 60_000);

  test("i compact on that session sends its summary request to the recorded server", async () => {
    rig = await makeRig({ script: (_req, i) => ({ text: `long answer number ${i} `.repeat(20) }) });
    const r0 = rig;
    for (const p of ["one", "two", "three", "four"])
      expect((await r0.run(["-p", ...(p === "one" ? [] : ["-c"]), p])).code).toBe(0);
    const before = r0.mock.requests.length;
    const r = await runBare(r0, ["compact"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r0.mock.requests.length).toBe(before + 1);
  }, 60_000);

  test("a base URL with a user name or password is refused, named without the password, never saved", async () => {
    rig = await makeRig({ script: () => ({ text: "never" }) });
    const r0 = rig;
    const url = r0.mock.url.replace("http://", "http://alice:hunter2@");
    const r = await runBare(r0, ["-p", "hi", "-m", "mock-model", "--base-url", url]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("contains a user name or password");
    expect(r.stderr).not.toContain("hunter2");
    expect(r.stderr).not.toContain("alice");
    expect(savedSessionIds(r0.dataDir)).toEqual([]);
    expect(r0.mock.requests).toHaveLength(0);
  }, 60_000);
});
