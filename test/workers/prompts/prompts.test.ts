import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PROMPTS } from "../../../src/contract/generated/prompts.ts";
import { MAX_INSTRUCTIONS_CHARS } from "../../../workers/prompts/compact-prompt.ts";
import { createPromptsModule } from "../../../workers/prompts/index.ts";
import { MAX_PROJECT_CHARS, MAX_TEMPLATE_CHARS } from "../../../workers/prompts/system-additions.ts";
import { removeDir, tempDir } from "../../helpers/cli.ts";
import { inProcess, type WorkerClient } from "../../helpers/worker-io.ts";

let root: string;
let configDir: string;
let workspace: string;
let worker: WorkerClient;

beforeEach(() => {
  root = tempDir("i-prompts-");
  configDir = join(root, "config");
  workspace = join(root, "ws");
  mkdirSync(join(configDir, "prompts"), { recursive: true });
  mkdirSync(join(workspace, ".i"), { recursive: true });
  worker = inProcess(createPromptsModule(configDir));
});

afterEach(async () => {
  await worker.close();
  removeDir(root);
});

const systemPrompt = (data: Record<string, unknown>) => worker.request("system_prompt", data, workspace);
const beforeCompact = (data: Record<string, unknown>) => worker.request("before_compact", data, workspace);

describe("system_prompt", () => {
  test("without any file the data comes back unchanged", async () => {
    const data = { system: "BASE", workspace, model: "m", tools: ["read"] };
    expect((await systemPrompt(data)).data).toEqual(data);
  });

  test("appends the user's additions and the project files, delimited, with {{workspace}} substituted", async () => {
    writeFileSync(join(configDir, "prompts", "system.md"), "Always answer in French. Root: {{workspace}}\n");
    writeFileSync(join(workspace, "AGENTS.md"), "Run `make test` before committing.\n");
    writeFileSync(join(workspace, ".i", "system.md"), "Tabs, not spaces, in {{workspace}}.\n");
    const reply = await systemPrompt({ system: "BASE", model: "m", extra: { keep: 1 } });
    const system = reply.data?.system as string;
    expect(system.startsWith("BASE\n\nAlways answer in French. Root: ")).toBe(true);
    expect(system).toContain(`Root: ${workspace}`);
    expect(system).toContain(
      '<project-instructions file="AGENTS.md">\nRun `make test` before committing.\n</project-instructions>',
    );
    expect(system).toContain(
      `<project-instructions file=".i/system.md">\nTabs, not spaces, in ${workspace}.\n</project-instructions>`,
    );
    expect(system.indexOf("French")).toBeLessThan(system.indexOf("AGENTS.md"));
    expect(system.indexOf("AGENTS.md")).toBeLessThan(system.indexOf(".i/system.md"));
    expect(reply.data?.model).toBe("m");
    expect(reply.data?.extra).toEqual({ keep: 1 });
  });

  test("a long project file is cut with a note, not refused", async () => {
    writeFileSync(join(workspace, "AGENTS.md"), "x".repeat(MAX_PROJECT_CHARS + 500));
    const system = (await systemPrompt({ system: "" })).data?.system as string;
    expect(system).toContain(`only the first ${MAX_PROJECT_CHARS} are shown`);
    expect(system.length).toBeLessThan(MAX_PROJECT_CHARS + 1000);
  });

  test("a user template over the limit is an error naming the file", async () => {
    writeFileSync(join(configDir, "prompts", "system.md"), "y".repeat(MAX_TEMPLATE_CHARS + 1));
    const reply = await systemPrompt({ system: "" });
    expect(reply.error).toContain(join(configDir, "prompts", "system.md"));
    expect(reply.error).toContain("over the 32000 limit");
  });

  // A FIFO would block a plain read until its 15 s request deadline evicted the worker.
  test("a FIFO as the user's template is an error naming it at once; a FIFO AGENTS.md is skipped and logged", async () => {
    expect(spawnSync("mkfifo", [join(configDir, "prompts", "system.md")]).status).toBe(0);
    const started = performance.now();
    const reply = await systemPrompt({ system: "" });
    expect(reply.error).toBe(
      `${join(configDir, "prompts", "system.md")}: is a FIFO (named pipe), not a regular file; replace it with a regular file`,
    );
    removeDir(join(configDir, "prompts"));
    expect(spawnSync("mkfifo", [join(workspace, "AGENTS.md")]).status).toBe(0);
    writeFileSync(join(workspace, ".i", "system.md"), "Tabs.\n");
    const ok = await systemPrompt({ system: "BASE" });
    expect(ok.data?.system).toContain('<project-instructions file=".i/system.md">');
    expect(ok.data?.system).not.toContain("AGENTS.md");
    expect(worker.log()).toContain("prompts: skipping AGENTS.md:");
    expect(worker.log()).toContain("is a FIFO (named pipe)");
    expect(performance.now() - started).toBeLessThan(5000);
  });

  test("a project file linking out of the workspace is not read", async () => {
    writeFileSync(join(root, "secret.md"), "TOP SECRET");
    symlinkSync(join(root, "secret.md"), join(workspace, "AGENTS.md"));
    const reply = await systemPrompt({ system: "BASE" });
    expect(reply.data?.system).toBe("BASE");
    expect(worker.log()).toContain("outside the workspace");
  });

  test("data without a string system is an error", async () => {
    expect((await systemPrompt({ system: 3 })).error).toContain("data.system must be a string");
  });
});

describe("before_compact", () => {
  test("supplies the embedded default with {{workspace}} substituted, keeping the other fields", async () => {
    const data = { messages: [{ role: "user", content: "hi" }], cut: 3, state: { a: 1 } };
    const reply = await beforeCompact(data);
    expect(reply.data?.prompt).toBe(`${PROMPTS.compact.replaceAll("{{workspace}}", workspace).trimEnd()}\n`);
    expect(reply.data?.prompt).not.toContain("{{workspace}}");
    expect(reply.data?.messages).toEqual(data.messages);
    expect(reply.data?.cut).toBe(3);
    expect(reply.data?.state).toEqual({ a: 1 });
  });

  test("uses config_dir/prompts/summary.md when present", async () => {
    writeFileSync(join(configDir, "prompts", "summary.md"), "Summarise {{workspace}} tersely.");
    const reply = await beforeCompact({ messages: [] });
    expect(reply.data?.prompt).toBe(`Summarise ${workspace} tersely.\n`);
  });

  test("appends /compact instructions under their own heading", async () => {
    writeFileSync(join(configDir, "prompts", "summary.md"), "Summarise.");
    const reply = await beforeCompact({ messages: [], instructions: "  focus on the parser bug  " });
    expect(reply.data?.prompt).toBe(
      "Summarise.\n\n## Additional instructions from the user for this summary\nfocus on the parser bug\n",
    );
    expect(reply.data?.instructions).toBe("  focus on the parser bug  ");
  });

  test("blank instructions add nothing", async () => {
    writeFileSync(join(configDir, "prompts", "summary.md"), "Summarise.");
    expect((await beforeCompact({ instructions: "   " })).data?.prompt).toBe("Summarise.\n");
    expect((await beforeCompact({ instructions: null })).data?.prompt).toBe("Summarise.\n");
  });

  test("a prompt set by an earlier hook is left alone", async () => {
    const data = { prompt: "EARLIER", instructions: "x", messages: [] };
    expect((await beforeCompact(data)).data).toEqual(data);
  });

  test("summary.md over 32000 characters is an error naming the file", async () => {
    writeFileSync(join(configDir, "prompts", "summary.md"), "z".repeat(MAX_TEMPLATE_CHARS + 1));
    const reply = await beforeCompact({ messages: [] });
    expect(reply.error).toContain(join(configDir, "prompts", "summary.md"));
    expect(reply.error).toContain("shorten the file");
  });

  test("over-long or non-string instructions are errors", async () => {
    const long = await beforeCompact({ instructions: "w".repeat(MAX_INSTRUCTIONS_CHARS + 1) });
    expect(long.error).toContain("over the 8000 limit");
    expect((await beforeCompact({ instructions: 5 })).error).toContain("must be a string");
  });
});
