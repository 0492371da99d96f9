// The launchers (scripts/start.sh from a source checkout, and `i start`): a fresh manifest from the
// current bindings for the profile asked for, commands that take no manifest passed straight through.
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { makeRig, type Rig } from "../agent/rig.ts";
import { ROOT, startProgram } from "../helpers/cli.ts";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const toolNames = (body: unknown) =>
  ((body as { tools?: { function?: { name: string } }[] }).tools ?? []).map((t) => t.function?.name);

describe("launchers", () => {
  for (const launcher of ["start.sh", "i start"] as const) {
    test(`${launcher}: the manifest follows --profile; doctor passes through`, async () => {
      rig = await makeRig({ script: [{ text: "one" }, { text: "two" }] });
      const r = rig;
      const run = (args: string[]) => {
        const common = r.flags;
        const env = { ...process.env, ...r.env };
        return launcher === "start.sh"
          ? startProgram("sh", [join(ROOT, "scripts", "start.sh"), ...args, ...common], { env }).done
          : startProgram(
              process.execPath,
              [join(ROOT, "src", "cli", "main.ts"), "start", ...args, ...common],
              { env },
            ).done;
      };
      const standard = await run(["-p", "hi"]);
      expect(standard.stderr).toBe("");
      expect(standard.stdout).toBe("one\n");
      expect(toolNames(r.mock.requests[0]?.body)).toContain("grep");
      const compact = await run(["-p", "hi", "--profile", "compact"]);
      expect(compact.stdout).toBe("two\n");
      expect(toolNames(r.mock.requests[1]?.body)).not.toContain("grep");
      const doctor = await startProgram(
        launcher === "start.sh" ? "sh" : process.execPath,
        launcher === "start.sh"
          ? [join(ROOT, "scripts", "start.sh"), "doctor", "--profile", "compact", ...r.flags]
          : [join(ROOT, "src", "cli", "main.ts"), "start", "doctor", "--profile", "compact", ...r.flags],
        { env: { ...process.env, ...r.env } },
      ).done;
      expect(doctor.stderr).toBe("");
      expect(doctor.code).toBe(0);
      expect(doctor.stdout).toContain("all 3 modules ok");
    }, 30_000);
  }
});
