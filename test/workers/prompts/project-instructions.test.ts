// Project instructions from the repository root down to the workspace (AGENTS.md, else CLAUDE.md), the
// user's own for every project (config_dir/AGENTS.md), and what each applies to.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createPromptsModule } from "../../../workers/prompts/index.ts";
import { removeDir, tempDir } from "../../helpers/cli.ts";
import { inProcess, type WorkerClient } from "../../helpers/worker-io.ts";

let root: string;
let configDir: string;
let repo: string;
let workspace: string;
let worker: WorkerClient;

beforeEach(() => {
  root = tempDir("i-instr-");
  configDir = join(root, "config");
  repo = join(root, "repo");
  workspace = join(repo, "packages", "app");
  mkdirSync(configDir, { recursive: true });
  mkdirSync(join(repo, ".git"), { recursive: true });
  mkdirSync(workspace, { recursive: true });
  worker = inProcess(createPromptsModule(configDir));
});

afterEach(async () => {
  await worker.close();
  removeDir(root);
});

const system = async () =>
  (await worker.request("system_prompt", { system: "BASE" }, workspace)).data?.system as string;

test("every level from the repository root to the workspace, outermost first; CLAUDE.md where no AGENTS.md", async () => {
  writeFileSync(join(root, "AGENTS.md"), "ABOVE THE REPOSITORY\n");
  writeFileSync(join(repo, "AGENTS.md"), "Use pnpm.\n");
  writeFileSync(join(repo, "CLAUDE.md"), "NOT READ: AGENTS.md is there\n");
  writeFileSync(join(repo, "packages", "CLAUDE.md"), "Packages are ESM.\n");
  writeFileSync(join(workspace, "AGENTS.md"), "Run the app tests.\n");
  const s = await system();
  expect(s).not.toContain("ABOVE THE REPOSITORY");
  expect(s).not.toContain("NOT READ");
  const order = ["../../AGENTS.md", "../CLAUDE.md", '"AGENTS.md"'].map((n) => s.indexOf(n));
  expect(order.every((i) => i > 0)).toBe(true);
  expect([...order].sort((a, b) => a - b)).toEqual(order);
  expect(s).toContain(
    `The project file ../../AGENTS.md says the following; it applies to the whole repository below ${repo}, this workspace included.`,
  );
  expect(s).toContain("The project file AGENTS.md says the following; it applies to the whole workspace.");
  expect(s).toContain(
    '<project-instructions file="../CLAUDE.md">\nPackages are ESM.\n</project-instructions>',
  );
});

test("outside a repository only the workspace's own file is read", async () => {
  removeDir(join(repo, ".git"));
  writeFileSync(join(repo, "AGENTS.md"), "PARENT\n");
  writeFileSync(join(workspace, "CLAUDE.md"), "Workspace rules.\n");
  const s = await system();
  expect(s).not.toContain("PARENT");
  expect(s).toContain('<project-instructions file="CLAUDE.md">\nWorkspace rules.\n</project-instructions>');
});

test("the user's own instructions for every project come from config_dir/AGENTS.md, before the project's", async () => {
  writeFileSync(join(configDir, "AGENTS.md"), "Answer tersely.\n");
  writeFileSync(join(workspace, "AGENTS.md"), "Project rule.\n");
  const s = await system();
  expect(s).toContain(
    `## The user's instructions for every project (${join(configDir, "AGENTS.md")})\nAnswer tersely.`,
  );
  expect(s.indexOf("Answer tersely")).toBeLessThan(s.indexOf("Project rule"));
});

test("a parent's file linking out of the repository is not read", async () => {
  writeFileSync(join(root, "secret.md"), "TOP SECRET\n");
  symlinkSync(join(root, "secret.md"), join(repo, "AGENTS.md"));
  expect(await system()).toBe("BASE");
  expect(worker.log()).toContain("prompts: skipping ../../AGENTS.md");
});
