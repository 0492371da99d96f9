// A machine that has never run `i`: a fresh HOME with no ~/.i at all. Every command must work the first
// time — without `i init` and after it — and `i init` must write desktop.json from the bindings it finds.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type MockServer, startMockServer } from "../fixtures/mock-server/index.ts";
import { MAIN, ROOT, removeDir, runCliAsync, startProgram, tempDir } from "../helpers/cli.ts";

let home: string;
let mock: MockServer;
beforeEach(async () => {
  home = tempDir("i-home-");
  mkdirSync(join(home, "ws"));
  mock = await startMockServer({ script: (_req, i) => ({ text: `answer ${i}` }) });
});
afterEach(async () => {
  await mock.close();
  removeDir(home);
});

/** Only HOME says where things go: ~/.i/config and ~/.i/sessions, as for a new user. */
const env = () => ({
  HOME: home,
  I_CONFIG_DIR: "",
  I_DATA_DIR: "",
  I_MODEL: "",
  I_PROVIDER: "",
  I_BASE_URL: "",
  OPENAI_API_KEY: "sk-test-key-not-real-0000000000",
});
const i = (args: string[]) => runCliAsync(args, env(), join(home, "ws"));
const CFG = () => join(home, ".i", "config");

async function everyCommandWorks(): Promise<void> {
  const target = ["-m", "gpt-4o", "--base-url", mock.url];
  const first = await i(["-p", "hello", ...target]);
  expect(first.stderr).toBe("");
  expect(first.stdout).toBe("answer 0\n");
  expect(first.code).toBe(0);
  // -c reuses the session's model: no -m needed
  const again = await i(["-p", "-c", "more", "--base-url", mock.url]);
  expect(again.stderr).toBe("");
  expect(again.stdout).toBe("answer 1\n");
  const sessions = await i(["sessions"]);
  expect(sessions.code).toBe(0);
  expect(sessions.stdout).toContain("hello");
  const doctor = await i(["doctor", ...target]);
  expect(doctor.stderr).toBe("");
  expect(doctor.code).toBe(0);
  const manifest = await i(["--runtime", "manifest", "standard"]);
  expect(manifest.code).toBe(0);
  const viaLauncher = await startProgram("sh", [join(ROOT, "scripts", "start.sh"), "-p", "hi", ...target], {
    env: { ...process.env, ...env() },
    cwd: join(home, "ws"),
  }).done;
  expect(viaLauncher.stderr).toBe("");
  expect(viaLauncher.stdout).toBe("answer 2\n");
  expect(readdirLogs()).toBe(true);
}

const readdirLogs = () => existsSync(join(CFG(), "logs"));

describe("first run", () => {
  test("without i init", async () => {
    expect(existsSync(join(home, ".i"))).toBe(false);
    await everyCommandWorks();
  }, 60_000);

  test("without a model: one line naming the full path of the config.json to set it in, exit 2", async () => {
    const r = await i(["-p", "hello", "--base-url", mock.url]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      `i: no model chosen: pass -m NAME, set I_MODEL, or set "model" in ${join(CFG(), "config.json")}\n`,
    );
  }, 60_000);

  test("after i init", async () => {
    const init = await i(["init"]);
    expect(init.code).toBe(0);
    expect(init.stdout).toContain(`created ${join(CFG(), "desktop.json")} (from the current bindings)`);
    await everyCommandWorks();
  }, 60_000);
});

describe("i init and desktop.json", () => {
  /** `i` on PATH as the source checkout runs it, so the printed regenerate command can be run as-is. */
  function iOnPath(): string {
    const bin = join(home, "bin");
    mkdirSync(bin);
    writeFileSync(join(bin, "i"), `#!/bin/sh\nexec "${process.execPath}" "${MAIN}" "$@"\n`);
    chmodSync(join(bin, "i"), 0o755);
    return bin;
  }

  test("written from an existing bindings.json; doctor tells when it is stale and how to regenerate", async () => {
    mkdirSync(CFG(), { recursive: true });
    const compactor = join(ROOT, "examples", "python-compactor", "compactor.py");
    writeFileSync(
      join(CFG(), "bindings.json"),
      JSON.stringify({ compact: { exec: ["/usr/bin/python3", compactor] } }),
    );
    writeFileSync(join(CFG(), "plugins.json"), JSON.stringify({ profile: "compact" }));
    expect((await i(["init"])).code).toBe(0);
    const desktop = JSON.parse(readFileSync(join(CFG(), "desktop.json"), "utf8"));
    expect(desktop.profile).toBe("compact");
    expect(desktop.hooks.compact_plan[0].exec).toEqual(["/usr/bin/python3", compactor]);
    const target = ["-m", "gpt-4o", "--base-url", mock.url];
    let d = await i(["doctor", ...target]);
    expect(d.stdout).toMatch(
      /^ {2}desktop\.json +ok +profile compact, matches the current bindings and profile$/m,
    );
    // init keeps it
    expect((await i(["init"])).stdout).toContain(`kept    ${join(CFG(), "desktop.json")}`);

    // The binding is removed: desktop.json still runs the replacement until it is regenerated.
    writeFileSync(join(CFG(), "bindings.json"), "{}");
    d = await i(["doctor", ...target]);
    expect(d.code).toBe(0); // stale is a warning: the saved manifest is still a valid one
    expect(d.stdout).toMatch(
      /^ {2}desktop\.json +differs +modules ~budget ~compact differ from what the current bindings and profile \(compact\) generate$/m,
    );
    const cmd = d.stdout.match(/desktop\.json: to regenerate it run: (.*)$/m)?.[1] ?? "";
    expect(cmd.startsWith("i --runtime manifest compact > ")).toBe(true);
    const r = await startProgram("sh", ["-c", cmd], {
      env: { ...process.env, ...env(), PATH: `${iOnPath()}:${process.env.PATH}` },
    }).done;
    expect(r.code).toBe(0);
    expect(existsSync(join(CFG(), "desktop.json.new"))).toBe(false);
    d = await i(["doctor", ...target]);
    expect(d.stdout).toMatch(/^ {2}desktop\.json +ok +profile compact, matches/m);
  }, 60_000);

  test("an invalid bindings.json: the defaults are written, desktop.json is not, exit 2 with one line", async () => {
    mkdirSync(CFG(), { recursive: true });
    writeFileSync(join(CFG(), "bindings.json"), JSON.stringify({ compact: { exec: ["relative"] } }));
    const r = await i(["init"]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("bindings.json: field compact.exec[0]");
    expect(r.stderr).toContain("desktop.json was not written");
    expect(existsSync(join(CFG(), "config.json"))).toBe(true);
    expect(existsSync(join(CFG(), "desktop.json"))).toBe(false);
  }, 60_000);
});
