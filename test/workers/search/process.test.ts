// Real process: grep and find through the WorkerHost and `i worker search`.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { WorkerHost } from "../../../src/worker/host.ts";
import { removeDir, tempDir } from "../../helpers/cli.ts";
import { hostFor } from "../../helpers/worker-io.ts";

let root: string;
let host: WorkerHost;

beforeAll(() => {
  root = tempDir("i-search-proc-");
  const workspace = join(root, "ws");
  mkdirSync(join(workspace, "src"), { recursive: true });
  mkdirSync(join(root, "config"));
  writeFileSync(join(workspace, "src", "a.ts"), "alpha\nbeta\n");
  writeFileSync(join(workspace, "b.md"), "beta\n");
  host = hostFor(["search"], { configDir: join(root, "config"), workspace, dataDir: join(root, "data") });
});

afterAll(async () => {
  await host.close();
  removeDir(root);
});

test("grep and find answer through a real worker process; escapes are refused", async () => {
  expect(host.toolDecls().map((t) => t.name)).toEqual(["grep", "find"]);
  expect(await host.callTool("grep", { pattern: "beta" }, "c1")).toEqual({
    content: "b.md:1: beta\nsrc/a.ts:2: beta",
    is_error: false,
  });
  expect(await host.callTool("find", { pattern: "**/*.ts" }, "c2")).toEqual({
    content: "src/a.ts",
    is_error: false,
  });
  const escaped = await host.callTool("find", { pattern: "*", path: "../.." }, "c3");
  expect(escaped).toEqual({ content: 'find: path "../.." is outside the workspace', is_error: true });
});
