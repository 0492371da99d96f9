// The standalone executable, as users get it: compiled with `bun build --compile`, it serves its own
// built-in workers (`i worker …` re-runs the binary), start.sh regenerates the manifest from bindings on
// every run, and the example compactor — compiled on its own — replaces the built-in compact module.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { arch, platform } from "node:os";
import { join } from "node:path";
import { type MockServer, startMockServer } from "../fixtures/mock-server/index.ts";
import { dirEnv, ROOT, removeDir, savedSessionIds, startProgram, tempDir } from "../helpers/cli.ts";

const target = `${platform() === "win32" ? "windows" : platform()}-${arch()}`;
let dir: string;
let bin: string;
let mock: MockServer;

beforeAll(async () => {
  dir = tempDir("i-build-");
  const r = spawnSync(process.execPath, ["scripts/build.ts", "--out", join(dir, "dist")], {
    cwd: ROOT,
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`build failed: ${r.stderr}`);
  bin = join(dir, "dist", `i-${target}`);
  for (const d of ["ws", "cfg", "data"]) mkdirSync(join(dir, d));
  writeFileSync(
    join(dir, "cfg", "config.json"),
    JSON.stringify({ models: { "mock-model": { context_window: 60000 } } }),
  );
  mock = await startMockServer({
    script: [
      { tool_calls: [{ name: "bash", arguments: { command: "echo compiled-tool-ran" } }] },
      ...["a", "b", "c", "d"].map((x) => ({
        tool_calls: [{ name: "bash", arguments: { command: `echo step-${x}` } }],
      })),
      { tool_calls: [{ name: "find", arguments: { pattern: "*.txt" } }] },
      { text: "compiled run done" },
    ],
  });
  writeFileSync(join(dir, "ws", "one.txt"), "1\n");
}, 120_000);

afterAll(async () => {
  await mock?.close();
  removeDir(dir);
});

const env = () => dirEnv(dir);

async function runBin(file: string, args: string[]): Promise<{ code: number; out: string; err: string }> {
  const r = await startProgram(file, args, { env: env(), cwd: join(dir, "ws") }).done;
  return { code: r.code, out: r.stdout, err: r.stderr };
}

test("the compiled binary prints its version and binds built-ins to itself", async () => {
  const v = await runBin(join(bin, "i"), ["--version"]);
  expect(v.code).toBe(0);
  expect(v.out).toMatch(/^i \d+\.\d+\.\d+\n$/);
  const m = await runBin(join(bin, "i"), ["--runtime", "manifest", "compact"]);
  expect(m.code).toBe(0);
  expect(JSON.parse(m.out).modules[0].exec).toEqual([join(bin, "i"), "worker", "budget,compact"]);
});

test("the compiled binary reads no .env or bunfig.toml from the directory it starts in", async () => {
  // A workspace's .env would point config_dir elsewhere, and its bunfig.toml preload would run its code.
  const ws = join(dir, "dotfiles-ws");
  mkdirSync(ws);
  writeFileSync(join(ws, ".env"), `I_CONFIG_DIR=${join(dir, "dotenv-cfg")}\n`);
  writeFileSync(join(ws, "bunfig.toml"), 'preload = ["./preload.ts"]\n');
  const marker = join(dir, "preloaded");
  writeFileSync(
    join(ws, "preload.ts"),
    `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "1");\n`,
  );
  const { I_CONFIG_DIR: _, ...rest } = env();
  const home = join(dir, "home");
  for (const args of [["--version"], ["--runtime", "manifest", "compact"]]) {
    const r = await startProgram(join(bin, "i"), args, { env: { ...rest, HOME: home }, cwd: ws }).done;
    expect(r.code).toBe(0);
    if (args[0] !== "--version") expect(JSON.parse(r.stdout).config_dir).toBe(join(home, ".i", "config"));
  }
  expect(existsSync(marker)).toBe(false);
});

test("the compiled binary words bad input as one i: line, exit 2, no stack trace", async () => {
  const flag = await runBin(join(bin, "i"), ["--max-turns", "0", "-p", "hi"]);
  expect(flag).toEqual({
    code: 2,
    out: "",
    err: 'i: --max-turns: "0" is not a positive whole number; give the most model requests to make, e.g. --max-turns 20\n',
  });
  const bad = join(dir, "bad-cfg");
  mkdirSync(bad);
  writeFileSync(join(bad, "config.json"), "[]");
  const r = await startProgram(join(bin, "i"), ["-p", "hi", "-m", "mock-model"], {
    env: { ...env(), I_CONFIG_DIR: bad },
    cwd: join(dir, "ws"),
  }).done;
  expect(r).toEqual({
    code: 2,
    stdout: "",
    stderr: `i: ${join(bad, "config.json")}: is an array, not an object; write an object such as {} or delete the file\n`,
  });
}, 60_000);

test("print mode with the compiled binary: core and module tools through compiled workers", async () => {
  const r = await runBin(join(bin, "i"), [
    "-p",
    "go",
    "-m",
    "mock-model",
    "--base-url",
    mock.url,
    "--approve",
    "all",
  ]);
  expect(r.err).toBe("");
  expect(r.code).toBe(0);
  expect(r.out).toBe("compiled run done\n");
  const last = JSON.stringify(mock.requests.at(-1)?.body);
  expect(last).toContain("one.txt");
  expect(JSON.stringify(mock.requests[1]?.body)).toContain("compiled-tool-ran");
  expect(mock.requests).toHaveLength(7);
});

test("start.sh picks up a compact binding to the compiled example compactor; i compact uses it locally", async () => {
  // The examples are staged (and archived) apart from the platform's own files.
  const compactor = join(dir, "dist", `i-examples-${target}`, "local-compactor", "i-local-compactor");
  writeFileSync(
    join(dir, "cfg", "bindings.json"),
    JSON.stringify({ compact: { exec: [compactor, "--compact"] } }),
  );
  const manifest = await runBin(join(bin, "i"), ["--runtime", "manifest", "standard"]);
  const m = JSON.parse(manifest.out);
  for (const e of ["compact_plan", "before_compact", "after_compact", "before_compact_commit"]) {
    expect(m.hooks[e].find((x: { module: string }) => x.module === "compact").exec).toEqual([
      compactor,
      "--compact",
    ]);
  }
  const before = mock.requests.length;
  const doctor = await runBin(join(bin, "i"), ["doctor", "-m", "mock-model", "--base-url", mock.url]);
  expect(doctor.code).toBe(0);
  expect(doctor.out).toContain("bound");
  const c = await runBin(join(bin, "start.sh"), [
    "compact",
    "-m",
    "mock-model",
    "--base-url",
    mock.url,
    "--instructions",
    "keep notes",
  ]);
  expect(c.err).toBe("");
  expect(c.code).toBe(0);
  expect(c.out).toContain("(local summary)");
  // a local summary: no summary request reached the model
  expect(mock.requests.length).toBe(before);
  const [id] = savedSessionIds(join(dir, "data"));
  const history = JSON.parse(readFileSync(join(dir, "data", id as string, "history.json"), "utf8"));
  expect(history[1].meta.summary).toBe(true);
}, 60_000);

test("the example compactor cross-compiles to a Windows .exe", () => {
  const out = join(dir, "win", "i-local-compactor.exe");
  const r = spawnSync(
    process.execPath,
    [
      "build",
      "--compile",
      "--target=bun-windows-x64",
      join(ROOT, "examples", "local-compactor", "main.ts"),
      "--outfile",
      out,
    ],
    { encoding: "utf8" },
  );
  expect(r.status).toBe(0);
  const head = readFileSync(out).subarray(0, 0x400);
  expect(head.subarray(0, 2).toString("latin1")).toBe("MZ");
  const peAt = head.readUInt32LE(0x3c);
  expect(head.subarray(peAt, peAt + 4).toString("latin1")).toBe("PE\0\0");
  expect(head.readUInt16LE(peAt + 4)).toBe(0x8664); // x86-64
}, 180_000);
