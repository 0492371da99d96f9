// The assembled system prompt, per approval mode, against golden files (date, platform, shell and git
// state injected, so the text is the same on every machine). Set UPDATE_GOLDEN=1 to rewrite them after
// an intended change, then review the diff.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { modelFamily } from "../../src/agent/model-family.ts";
import { gitState, type PromptEnvironment, parseBranchLine } from "../../src/agent/prompt-environment.ts";
import { basePrompt } from "../../src/agent/system-prompt.ts";
import type { ApprovalPolicy } from "../../src/tools/types.ts";
import { tempDir } from "../helpers/cli.ts";
import { makeRig, type Rig } from "./rig.ts";

const GOLDEN = join(import.meta.dir, "golden");
const TOOLS = ["read", "write", "edit", "bash", "grep", "find", "skill", "memory"];

const env = (approval: ApprovalPolicy, extra: Partial<PromptEnvironment> = {}): PromptEnvironment => ({
  date: "2026-03-14 (Saturday)",
  platform: "linux x64",
  shell: "/usr/bin/bash",
  workspace: "/home/dev/project",
  git: { kind: "repo", branch: "feature/login", dirty: true },
  approval,
  nestedInstructions: true,
  ...extra,
});

function golden(name: string, text: string): void {
  const file = join(GOLDEN, name);
  if (process.env.UPDATE_GOLDEN === "1") writeFileSync(file, text);
  if (!existsSync(file)) throw new Error(`${name} is missing: run with UPDATE_GOLDEN=1 and review it`);
  expect(text).toBe(readFileSync(file, "utf8"));
}

describe("golden system prompts", () => {
  for (const approval of ["all", "ask", "none"] as const) {
    test(`--approve ${approval}`, () => {
      const info = {
        workspace: "/home/dev/project",
        model: "claude-sonnet-4-5",
        provider: "anthropic",
        tools: TOOLS,
      };
      golden(`system-${approval}.txt`, basePrompt(info, env(approval)));
    });
  }

  test("a GPT-5 model with apply_patch, in a sandbox without network, outside git", () => {
    const info = {
      workspace: "/home/dev/project",
      model: "gpt-5-codex",
      provider: "responses",
      tools: ["read", "apply_patch", "bash", "grep", "find"],
    };
    const text = basePrompt(info, env("all", { git: { kind: "none" }, sandbox: { network: false } }));
    golden("system-gpt5-sandbox.txt", text);
  });
});

describe("the parts", () => {
  test("read-only says so and gives no writing rules", () => {
    const info = { workspace: "/w", model: "qwen2.5-coder", provider: "openai", tools: TOOLS };
    const text = basePrompt(info, env("none"));
    expect(text).toContain("none, read-only: bash, write and edit are refused. Do not try to write files");
    expect(text).toContain("This session is read-only: do not try to write or edit files");
    expect(text).not.toContain("Change existing files with edit");
    expect(text).not.toContain("{{");
  });

  test("without grep and find the prompt says how to search with bash", () => {
    const info = {
      workspace: "/w",
      model: "gpt-4.1",
      provider: "openai",
      tools: ["read", "write", "edit", "bash"],
    };
    expect(basePrompt(info, env("all"))).toContain("search with bash (rg or grep -rn, find)");
  });

  test("families", () => {
    expect(
      ["gpt-5", "gpt-5-codex", "openai/o3", "codex-mini", "gpt-4.1", "claude-opus-4-5", "qwen3-coder"].map(
        modelFamily,
      ),
    ).toEqual([
      "openai-reasoning",
      "openai-reasoning",
      "openai-reasoning",
      "openai-reasoning",
      "openai",
      "anthropic",
      "open",
    ]);
  });

  test("git branch lines", () => {
    expect(parseBranchLine("## main...origin/main [ahead 1]")).toBe("main");
    expect(parseBranchLine("## feature/x")).toBe("feature/x");
    expect(parseBranchLine("## No commits yet on trunk")).toBe("trunk (no commits yet)");
    expect(parseBranchLine("## HEAD (no branch)")).toBe("detached HEAD");
  });

  test("git state of a real repository: branch and dirty", async () => {
    const dir = tempDir("i-git-");
    expect(await gitState(dir)).toEqual({ kind: "none" });
    const { spawnSync } = await import("node:child_process");
    spawnSync("git", ["init", "-q", "-b", "work", dir]);
    expect(await gitState(dir)).toEqual({ kind: "repo", branch: "work (no commits yet)", dirty: false });
    writeFileSync(join(dir, "new.txt"), "x");
    expect(await gitState(dir)).toEqual({ kind: "repo", branch: "work (no commits yet)", dirty: true });
  });
});

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

test("under --approve none the system prompt the model gets says read-only", async () => {
  rig = await makeRig({ script: [{ text: "ok" }] });
  const r = await rig.run(["-p", "look around", "--approve", "none"]);
  expect(r.code).toBe(0);
  const body = rig.mock.requests[0]?.body as { messages: { role: string; content: string }[] };
  const system = body.messages[0];
  expect(system?.role).toBe("system");
  expect(system?.content).toContain("none, read-only");
  expect(system?.content).toContain("do not try to write or edit files or to run commands");
  expect(system?.content).toMatch(/- Date: \d{4}-\d{2}-\d{2} \(\w+day\)/);
  expect(system?.content).toContain(`- Workspace: ${rig.workspace}`);
});
