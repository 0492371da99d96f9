import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseSkillFile } from "../../../src/lib/skill-file.ts";
import { createSkillsModule, MAX_LISTED, MAX_SKILL_CHARS } from "../../../workers/skills/index.ts";
import { removeDir, tempDir } from "../../helpers/cli.ts";
import { inProcess, toolResultOf, type WorkerClient } from "../../helpers/worker-io.ts";

let root: string;
let configDir: string;
let workspace: string;
let worker: WorkerClient;

function writeSkill(base: string, folder: string, text: string): string {
  mkdirSync(join(base, folder), { recursive: true });
  const file = join(base, folder, "SKILL.md");
  writeFileSync(file, text);
  return file;
}
const userSkills = () => join(configDir, "skills");
const wsSkills = () => join(workspace, ".i", "skills");

beforeEach(() => {
  root = tempDir("i-skills-");
  configDir = join(root, "config");
  workspace = join(root, "ws");
  mkdirSync(configDir, { recursive: true });
  mkdirSync(workspace, { recursive: true });
  worker = inProcess(createSkillsModule(configDir));
});

afterEach(async () => {
  await worker.close();
  removeDir(root);
});

const system = async () =>
  (await worker.request("system_prompt", { system: "BASE" }, workspace)).data?.system;
const skill = (args: unknown) =>
  worker.request("tool", { name: "skill", arguments: args, call_id: "c1" }, workspace);

describe("front matter", () => {
  test("name and description are read, other keys ignored, quotes removed", () => {
    const h = parseSkillFile(
      '---\nname: "deploy"\nlicense: MIT\ndescription: Ship it safely\n---\n# Deploy\nSteps',
    );
    expect(h).toEqual({ name: "deploy", description: "Ship it safely", body: "# Deploy\nSteps" });
  });
  test("no front matter: the whole file is the body", () => {
    expect(parseSkillFile("# Title\ntext")).toEqual({ body: "# Title\ntext" });
    expect(parseSkillFile("---\nunterminated").name).toBeUndefined();
  });
});

describe("system_prompt", () => {
  test("no skills: data unchanged", async () => {
    expect(await system()).toBe("BASE");
  });

  test("lists name and one-line description, sorted, and tells the model to use the skill tool", async () => {
    writeSkill(userSkills(), "zeta", "---\nname: zeta\ndescription: Last one\n---\nbody");
    writeSkill(userSkills(), "alpha", "# Alpha\n\nFirst prose line\nmore");
    const text = (await system()) as string;
    expect(text).toContain("call the `skill` tool");
    expect(text).toContain("- alpha: First prose line\n- zeta: Last one");
    expect(text.startsWith("BASE\n\n## Skills")).toBe(true);
  });

  test("workspace skills win on a name clash", async () => {
    writeSkill(userSkills(), "lint", "---\ndescription: user version\n---\nUSER BODY");
    writeSkill(wsSkills(), "lint", "---\ndescription: project version\n---\nPROJECT BODY");
    expect(await system()).toContain("- lint: project version");
    expect((await skill({ name: "lint" })).data?.result).toMatchObject({ is_error: false });
    const content = toolResultOf(await skill({ name: "lint" })).content;
    expect(content).toContain("PROJECT BODY");
    expect(content).not.toContain("USER BODY");
  });

  test("the listing is bounded", async () => {
    for (let i = 0; i < MAX_LISTED + 5; i++) {
      writeSkill(
        userSkills(),
        `s${String(i).padStart(3, "0")}`,
        `---\ndescription: ${"d".repeat(500)}\n---\n`,
      );
    }
    const text = (await system()) as string;
    expect(text).toContain("… and 5 more");
    expect(text).not.toContain("d".repeat(250));
  });

  test("new and changed skills are noticed by the same process", async () => {
    const file = writeSkill(userSkills(), "one", "---\ndescription: first\n---\n");
    expect(await system()).toContain("- one: first");
    writeFileSync(file, "---\ndescription: second version\n---\n");
    utimesSync(file, new Date(), new Date(Date.now() + 5000)); // a distinct mtime even on coarse clocks
    writeSkill(userSkills(), "two", "---\ndescription: added later\n---\n");
    const text = (await system()) as string;
    expect(text).toContain("- one: second version");
    expect(text).toContain("- two: added later");
  });
});

describe("skill tool", () => {
  test("returns the full text with the folder", async () => {
    const file = writeSkill(userSkills(), "deploy", "---\nname: deploy\n---\nRun ./ship.sh then check.");
    const r = (await skill({ name: "deploy" })).data?.result as { content: string; is_error: boolean };
    expect(r.is_error).toBe(false);
    expect(r.content).toContain("Run ./ship.sh then check.");
    expect(r.content).toContain(join(file, ".."));
  });

  test("an unknown name is an error listing the available ones", async () => {
    writeSkill(userSkills(), "a", "x");
    writeSkill(wsSkills(), "b", "y");
    const r = (await skill({ name: "nope" })).data?.result as { content: string; is_error: boolean };
    expect(r.is_error).toBe(true);
    expect(r.content).toBe('no skill named "nope"; available skills: a, b');
  });

  test("no skills at all, and bad arguments, are errors", async () => {
    const none = (await skill({ name: "x" })).data?.result as { content: string; is_error: boolean };
    expect(none).toEqual({ content: 'no skill named "x"; no skills are installed', is_error: true });
    const bad = (await skill({ nme: "x" })).data?.result as { content: string; is_error: boolean };
    expect(bad.is_error).toBe(true);
    expect(bad.content).toContain("skill: invalid arguments");
  });

  test("a long skill is cut with a note", async () => {
    writeSkill(userSkills(), "big", "b".repeat(MAX_SKILL_CHARS + 100));
    const r = (await skill({ name: "big" })).data?.result as { content: string };
    expect(r.content).toContain(`only the first ${MAX_SKILL_CHARS} are shown`);
    expect(r.content.length).toBeLessThan(MAX_SKILL_CHARS + 1000);
  });

  test("a workspace skill linking out of the workspace is ignored", async () => {
    writeSkill(join(root, "outside"), "evil", "OUTSIDE TEXT");
    mkdirSync(wsSkills(), { recursive: true });
    symlinkSync(join(root, "outside", "evil"), join(wsSkills(), "evil"));
    expect(await system()).toBe("BASE");
    expect(toolResultOf(await skill({ name: "evil" })).is_error).toBe(true);
  });
});
