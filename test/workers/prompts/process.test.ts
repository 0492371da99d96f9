// Real processes: the built-in modules that add to the system prompt, run by the WorkerHost through
// `i worker prompts,skills,memory` as one shared process, pipelined in registry order.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { removeDir, tempDir } from "../../helpers/cli.ts";
import type { ObservedHost } from "../../helpers/observed-host.ts";
import { hostFor } from "../../helpers/worker-io.ts";

let root: string;
let configDir: string;
let workspace: string;
let host: ObservedHost;

beforeEach(() => {
  root = tempDir("i-prompts-proc-");
  configDir = join(root, "config");
  workspace = join(root, "ws");
  mkdirSync(join(configDir, "prompts"), { recursive: true });
  mkdirSync(join(configDir, "skills", "review"), { recursive: true });
  mkdirSync(workspace, { recursive: true });
  host = hostFor(["prompts", "skills", "memory"], { configDir, workspace, dataDir: join(root, "data") });
});

afterEach(async () => {
  await host.close();
  removeDir(root);
});

test("system_prompt runs prompts, skills and memory as a pipeline in one worker process", async () => {
  writeFileSync(join(configDir, "prompts", "system.md"), "USER ADDITION for {{workspace}}");
  writeFileSync(
    join(configDir, "skills", "review", "SKILL.md"),
    "---\ndescription: review a diff\n---\nsteps",
  );
  writeFileSync(join(workspace, "AGENTS.md"), "PROJECT RULE");
  const added = await host.callTool("memory", { action: "add", text: "NOTE ONE" }, "c1");
  expect(added).toEqual({ content: "remembered note 1", is_error: false });

  const data = await host.runHook("system_prompt", { system: "BASE", workspace, model: "m" });
  const system = data.system as string;
  const order = [
    "BASE",
    `USER ADDITION for ${workspace}`,
    "PROJECT RULE",
    "- review: review a diff",
    "- [1] NOTE ONE",
  ];
  const positions = order.map((s) => system.indexOf(s));
  expect(positions.every((p) => p >= 0)).toBe(true);
  expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  expect(data.model).toBe("m");
  expect(host.spawned).toBe(1);
});

test("before_compact through a real process supplies the prompt with the /compact instructions", async () => {
  writeFileSync(join(configDir, "prompts", "summary.md"), "Summarise work in {{workspace}}.");
  const data = await host.runHook("before_compact", {
    messages: [],
    cut: 2,
    state: null,
    instructions: "keep paths",
  });
  expect(data.prompt).toBe(
    `Summarise work in ${workspace}.\n\n## Additional instructions from the user for this summary\nkeep paths\n`,
  );
  expect(data.cut).toBe(2);
});
