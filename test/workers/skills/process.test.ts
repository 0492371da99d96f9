// Real process: the skill tool through the WorkerHost and `i worker skills`.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { WorkerHost } from "../../../src/worker/host.ts";
import { removeDir, tempDir } from "../../helpers/cli.ts";
import { hostFor } from "../../helpers/worker-io.ts";

let root: string;
let host: WorkerHost;

beforeAll(() => {
  root = tempDir("i-skills-proc-");
  const workspace = join(root, "ws");
  mkdirSync(join(workspace, ".i", "skills", "release"), { recursive: true });
  writeFileSync(
    join(workspace, ".i", "skills", "release", "SKILL.md"),
    "---\nname: release\n---\nTag, then push.",
  );
  mkdirSync(join(root, "config"));
  host = hostFor(["skills"], { configDir: join(root, "config"), workspace, dataDir: join(root, "data") });
});

afterAll(async () => {
  await host.close();
  removeDir(root);
});

test("the skill tool loads a workspace skill in a real worker process", async () => {
  const ok = await host.callTool("skill", { name: "release" }, "c1");
  expect(ok.is_error).toBe(false);
  expect(ok.content).toContain("Tag, then push.");
  expect(await host.callTool("skill", { name: "other" }, "c2")).toEqual({
    content: 'no skill named "other"; available skills: release',
    is_error: true,
  });
});
