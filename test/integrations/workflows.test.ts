// action.yml and the example workflows as GitHub reads them: valid by @action-validator/cli (the
// schemas GitHub's own editors use), with the least permissions each needs said explicitly, and the
// action's inputs the examples use all declared in action.yml.
import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, removeDir, tempDir } from "../helpers/cli.ts";

const VALIDATOR = join(ROOT, "node_modules", ".bin", "action-validator");
const validate = (file: string) => spawnSync(VALIDATOR, [file], { encoding: "utf8" });

type Action = {
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
  runs: Record<string, string>;
};
const action = Bun.YAML.parse(readFileSync(join(ROOT, "action.yml"), "utf8")) as Action;

describe("action.yml", () => {
  test("runs the committed bundle on node24", () => {
    expect(action.runs).toEqual({ using: "node24", main: "integrations/action/dist/index.js" });
  });
  test("is valid for @action-validator/cli", () => {
    // The validator's schema predates the node24 runtime (it knows node12, node16, node20): the same file
    // with only `using` changed is checked, everything else as it is.
    const dir = tempDir("i-action-yml-");
    try {
      const text = readFileSync(join(ROOT, "action.yml"), "utf8");
      expect(text).toContain('using: "node24"');
      const copy = join(dir, "action.yml");
      writeFileSync(copy, text.replace('using: "node24"', 'using: "node20"'));
      const r = validate(copy);
      expect(r.stdout + r.stderr).toBe("");
      expect(r.status).toBe(0);
    } finally {
      removeDir(dir);
    }
  });
  test("declares the outputs the issue asks for", () => {
    expect(Object.keys(action.outputs).sort()).toEqual(
      ["cost_usd", "execution_file", "exit_code", "final_message", "session_id", "trajectory_file"].sort(),
    );
  });
  test("the validator rejects a broken action file (the check can fail)", () => {
    const dir = tempDir("i-action-yml-");
    try {
      writeFileSync(join(dir, "action.yml"), "name: x\nruns:\n  using: node20\n");
      expect(validate(join(dir, "action.yml")).status).not.toBe(0);
    } finally {
      removeDir(dir);
    }
  });
});

const EXAMPLES = join(ROOT, "examples", "github");
const files = readdirSync(EXAMPLES).filter((f) => f.endsWith(".yml"));

describe("examples/github", () => {
  test("there are the three: review a PR, fix CI, triage an issue", () => {
    expect(files.sort()).toEqual(["fix-ci.yml", "review-pr.yml", "triage-issue.yml"]);
  });
  for (const f of files) {
    test(`${f} is a valid workflow with explicit least permissions and known inputs`, () => {
      const r = validate(join(EXAMPLES, f));
      expect(r.stdout + r.stderr).toBe("");
      expect(r.status).toBe(0);
      const wf = Bun.YAML.parse(readFileSync(join(EXAMPLES, f), "utf8")) as {
        permissions: Record<string, string>;
        jobs: Record<string, { steps: { uses?: string; with?: Record<string, unknown> }[] }>;
      };
      expect(typeof wf.permissions).toBe("object");
      expect(Object.values(wf.permissions).every((p) => p === "read" || p === "write")).toBe(true);
      const steps = Object.values(wf.jobs).flatMap((j) => j.steps);
      const ours = steps.filter((s) => s.uses?.startsWith("i-agent/i@"));
      expect(ours.length).toBe(1);
      for (const k of Object.keys(ours[0]?.with ?? {})) expect(Object.keys(action.inputs)).toContain(k);
      // a sticky comment needs somewhere to write it
      if (ours[0]?.with?.comment === "sticky")
        expect(wf.permissions.issues === "write" || wf.permissions["pull-requests"] === "write").toBe(true);
    });
  }
});
