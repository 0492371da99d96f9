// What the lsp worker tells the core at hello: the file extensions its servers take, so the core sends
// files_changed only for those; nothing to filter on while a line waits to be said (a bad lsp.json, a
// project file not accepted), and idle when no server can run at all.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MAIN, removeDir, tempDir } from "../helpers/cli.ts";
import { fakeConfig } from "./rig.ts";

let dir: string;
beforeAll(() => {
  dir = tempDir("i-lsp-hello-");
});
afterAll(() => removeDir(dir));

/** The files_changed options of a hello to `i worker lsp` with this lsp.json (PATH: system dirs only). */
function helloOptions(name: string, lspJson: unknown): Record<string, unknown> {
  const cfg = join(dir, name, "cfg");
  const ws = join(dir, name, "ws");
  for (const d of [cfg, ws]) mkdirSync(d, { recursive: true });
  if (lspJson !== undefined)
    writeFileSync(join(cfg, "lsp.json"), typeof lspJson === "string" ? lspJson : JSON.stringify(lspJson));
  const hello = `${JSON.stringify({ id: 1, event: "hello", workspace: ws, data: { protocol: 1, module: "lsp" } })}\n`;
  const r = spawnSync(process.execPath, [MAIN, "worker", "lsp"], {
    env: { PATH: "/usr/bin:/bin", HOME: join(dir, name), I_CONFIG_DIR: cfg, I_DATA_DIR: join(dir, "data") },
    input: hello,
    encoding: "utf8",
    cwd: ws,
  });
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout.trim()).data.hook_options.files_changed;
}

test.skipIf(process.platform === "win32")(
  "the extensions of the servers that can run, and only those",
  () => {
    const o = helloOptions("fake", fakeConfig("ok", { extensions: [".fk", ".FK2"] }));
    expect(o.idle).toBeUndefined();
    // No built-in server is in /usr/bin or /bin here: only the configured one's extensions.
    expect(o.extensions).toEqual([".fk", ".fk2"]);
  },
);

test("a configured command that does not exist is still asked about (its line is said on a change)", () => {
  const o = helloOptions("missing", {
    servers: { nope: { command: "no-such-server", extensions: [".np"] } },
  });
  expect(o.extensions).toEqual([".np"]);
});

test("a bad lsp.json: no filter, so the next change of any file says what is wrong", () => {
  const o = helloOptions("bad", "{ not json");
  expect(o.idle).toBeUndefined();
  expect(o.extensions).toBeUndefined();
});

test("no server can run: idle, no extensions", () => {
  const o = helloOptions("none", undefined);
  expect(o.idle).toBe(true);
  expect(o.extensions).toBeUndefined();
});
