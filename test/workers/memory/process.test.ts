// Real process: notes written by one worker process are seen by the next, and survive compaction.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { WorkerHost } from "../../../src/worker/host.ts";
import { removeDir, tempDir } from "../../helpers/cli.ts";
import { hostFor } from "../../helpers/worker-io.ts";

let root: string;
let workspace: string;
let hosts: WorkerHost[] = [];

const newHost = () => {
  const host = hostFor(["memory"], {
    configDir: join(root, "config"),
    workspace,
    dataDir: join(root, "data"),
  });
  hosts.push(host);
  return host;
};

beforeEach(() => {
  root = tempDir("i-memory-proc-");
  workspace = join(root, "ws");
  mkdirSync(workspace, { recursive: true });
  mkdirSync(join(root, "config"));
});

afterEach(async () => {
  await Promise.all(hosts.map((h) => h.close()));
  hosts = [];
  removeDir(root);
});

test("a note added in one process reaches the summary message and the next process's system prompt", async () => {
  const first = newHost();
  expect(await first.callTool("memory", { action: "add", text: "db runs on port 5433" }, "c1")).toEqual({
    content: "remembered note 1",
    is_error: false,
  });
  const candidate = [
    { role: "system", content: "SYS" },
    { role: "user", content: "[Context summary] did things" },
    { role: "user", content: "continue" },
  ];
  const committed = await first.runHook("before_compact_commit", {
    candidate,
    summary: "did things",
    cut: 5,
    state: null,
    compacted: 4,
    workspace,
  });
  const summary = (committed.candidate as { content: { text: string }[] }[])[1];
  expect(summary?.content.map((p) => p.text).join("\n")).toContain("db runs on port 5433");
  expect((committed.candidate as unknown[])[2]).toEqual(candidate[2]);
  await first.close();

  const second = newHost();
  const data = await second.runHook("system_prompt", { system: "BASE" });
  expect(data.system).toContain("- [1] db runs on port 5433");
});
