// The lsp worker runs unmodified under Deno 2: its handshake over NDJSON, and a whole print-mode run under
// Deno whose write is answered with the diagnostics of a fake language server. Skipped where the Deno dev
// dependency is not installed.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type MockServer, startMockServer } from "../fixtures/mock-server/index.ts";
import { dirEnv, removeDir } from "../helpers/cli.ts";
import { DENO, denoCli, denoCliSync, denoHome } from "../helpers/deno.ts";
import { fakeConfig } from "./rig.ts";

let dir: string;
let mock: MockServer;

beforeAll(async () => {
  dir = denoHome("i-deno-lsp-");
  writeFileSync(join(dir, "cfg", "lsp.json"), JSON.stringify(fakeConfig("ok")));
  mock = await startMockServer({
    script: [
      { tool_calls: [{ name: "write", arguments: { path: "a.fk", content: "fine\nbad\n" } }] },
      { text: "deno lsp run finished" },
    ],
  });
});
afterAll(async () => {
  await mock?.close();
  removeDir(dir);
});

describe.skipIf(!existsSync(DENO))("the lsp worker under Deno", () => {
  test("answers hello over NDJSON, watching the tools that change or read files", () => {
    const hello = `${JSON.stringify({ id: 3, event: "hello", workspace: join(dir, "ws"), data: { protocol: 1, module: "lsp" } })}\n`;
    const r = denoCliSync(["worker", "lsp"], { env: dirEnv(dir), input: hello, cwd: join(dir, "ws") });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const reply = JSON.parse(r.stdout.trim());
    expect(reply.id).toBe(3);
    expect(reply.data.tools.map((t: { name: string }) => t.name)).toEqual(["lsp"]);
    expect(reply.data.hook_options.files_changed.tools).toEqual(["write", "edit", "apply_patch", "read"]);
    expect(reply.data.hook_options.files_changed.idle).toBeUndefined();
    expect(reply.data.hook_options.files_changed.extensions).toContain(".fk");
  }, 60_000);

  test("a print-mode run under Deno: the write's result carries the server's diagnostics", async () => {
    const r = await denoCli(
      [
        "-p",
        "write it",
        "--approve",
        "all",
        "-m",
        "mock-model",
        "--base-url",
        mock.url,
        "--workspace",
        join(dir, "ws"),
      ],
      dirEnv(dir),
    );
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("deno lsp run finished\n");
    const sent = JSON.stringify(mock.requests[1]?.body);
    expect(sent).toContain("fake reports 1 error in a.fk:");
    expect(sent).toContain("a.fk:2:1 error [F1]: fake error");
  }, 90_000);
});
