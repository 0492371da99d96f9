// The user's own slash commands in an editor: prompt templates (config_dir/prompts, .i/prompts) and skills
// are offered with available_commands_update and expand as the console expands them.
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type AcpRig, initialize, newSession, prompt, startAcp, until, updatesOf } from "./harness.ts";

let a: AcpRig | undefined;
afterEach(async () => {
  await a?.close();
  a = undefined;
});

const sent = (r: AcpRig, i: number) => JSON.stringify(r.rig.mock.requests[i]?.body);
const commandNames = (r: AcpRig) =>
  (updatesOf(r, "available_commands_update").at(-1)?.availableCommands ?? []).map((c) => c.name);

describe("i acp: templates and skills as commands", () => {
  test("a template and a skill are offered; /tmpl x and /deploy y send their expansions", async () => {
    a = await startAcp({
      script: [{ text: "reviewed" }, { text: "deployed" }],
      files: {
        ".i/skills/deploy/SKILL.md":
          "---\nname: deploy\ndescription: How to ship the service\n---\nRun make ship, then check the logs.\n",
      },
    });
    const prompts = join(a.rig.configDir, "prompts");
    mkdirSync(prompts, { recursive: true });
    writeFileSync(
      join(prompts, "tmpl.md"),
      "---\ndescription: review one file\nargument-hint: FILE\n---\nReview $1 with care in {{workspace}}.\n",
    );
    await initialize(a);
    const s = await newSession(a);
    await until(() => commandNames(a as AcpRig).includes("tmpl"));
    const offered = updatesOf(a, "available_commands_update").at(-1)?.availableCommands ?? [];
    expect(offered.find((c) => c.name === "tmpl")).toEqual({
      name: "tmpl",
      description: "template: review one file",
      input: { hint: "FILE" },
    });
    expect(offered.find((c) => c.name === "deploy")).toEqual({
      name: "deploy",
      description: "skill: How to ship the service",
      input: { hint: "task" },
    });
    // the built-ins come first, as before
    expect(offered[0]?.name).toBe("compact");

    expect((await prompt(a, s.sessionId, "/tmpl x")).stopReason).toBe("end_turn");
    expect(sent(a, 0)).toContain(`Review x with care in ${a.rig.workspace}.`);
    expect(sent(a, 0)).not.toContain("/tmpl");

    expect((await prompt(a, s.sessionId, "/deploy to staging")).stopReason).toBe("end_turn");
    const skill = sent(a, 1);
    expect(skill).toContain('Skill \\"deploy\\"');
    expect(skill).toContain("Run make ship, then check the logs.");
    expect(skill).toContain("to staging");
    expect(a.rig.mock.requests).toHaveLength(2);
  }, 30_000);

  test("a template added while the editor runs is offered after the next turn; unknown /words are messages", async () => {
    a = await startAcp({ script: [{ text: "one" }, { text: "two" }] });
    await initialize(a);
    const s = await newSession(a);
    await until(() => commandNames(a as AcpRig).includes("compact"));
    expect(commandNames(a)).not.toContain("later");
    mkdirSync(join(a.rig.workspace, ".i", "prompts"), { recursive: true });
    writeFileSync(join(a.rig.workspace, ".i", "prompts", "later.md"), "Say $ARGUMENTS twice.\n");
    await prompt(a, s.sessionId, "/nothing here");
    expect(sent(a, 0)).toContain("/nothing here");
    await until(() => commandNames(a as AcpRig).includes("later"));
    await prompt(a, s.sessionId, "/later hello world");
    expect(sent(a, 1)).toContain("Say hello world twice.");
  }, 30_000);
});

describe("i acp: a template's own model", () => {
  test("a template that names a model is sent to it; the session's model comes back after", async () => {
    const limits = { context_window: 100_000, max_output_tokens: 4096 };
    a = await startAcp({
      script: [{ text: "from the other" }, { text: "from the usual" }],
      files: { ".i/prompts/other.md": "---\nmodel: other-model\n---\nAsk the other model.\n" },
      config: { models: { "mock-model": limits, "other-model": limits } },
    });
    await initialize(a);
    const s = await newSession(a);
    expect((await prompt(a, s.sessionId, "/other")).stopReason).toBe("end_turn");
    expect(a.rig.mock.requests[0]?.body).toMatchObject({ model: "other-model" });
    expect(sent(a, 0)).toContain("Ask the other model.");
    expect((await prompt(a, s.sessionId, "and you?")).stopReason).toBe("end_turn");
    expect(a.rig.mock.requests[1]?.body).toMatchObject({ model: "mock-model" });
  }, 30_000);
});
