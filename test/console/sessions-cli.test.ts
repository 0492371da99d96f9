// The console's session commands through the real CLI (input piped): /model recorded for -c.
import { afterEach, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { makeRig, type Rig } from "../agent/rig.ts";
import { runCliAsync } from "../helpers/cli.ts";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const console = (r: Rig, input: string, args: string[] = [], flags = r.flags) =>
  runCliAsync([...args, ...flags], { ...r.env, NO_COLOR: "1" }, undefined, input);

const bodyOf = (r: Rig, i: number) => JSON.stringify(r.mock.requests[i]?.body);

/** The session directories of the rig's data dir (it also holds the steering queues). */
const sessionIds = (r: Rig) =>
  readdirSync(r.dataDir).filter((n) => existsSync(join(r.dataDir, n, "meta.json")));

/** The rig's flags without `-m`: a resumed session then runs with the model it recorded. */
const withoutModel = (r: Rig) => r.flags.filter((f, i) => f !== "-m" && r.flags[i - 1] !== "-m");

test("/model is recorded in the session: -c later resumes with the switched model", async () => {
  rig = await makeRig({
    script: [{ text: "first" }, { text: "second" }, { text: "third" }],
    config: {
      models: {
        "mock-model": { context_window: 100_000, max_output_tokens: 4096 },
        "other-model": { context_window: 50_000, max_output_tokens: 2048 },
      },
    },
  });
  expect((await console(rig, "hello\n/model other-model\nagain\n/exit\n")).code).toBe(0);
  const [id] = sessionIds(rig);
  const meta = JSON.parse(readFileSync(join(rig.dataDir, id ?? "", "meta.json"), "utf8"));
  expect(meta.model).toBe("other-model");
  expect(meta.provider).toBe("openai");
  const r = await console(rig, "once more\n/exit\n", ["-c"], withoutModel(rig));
  expect(r.code).toBe(0);
  expect(bodyOf(rig, 0)).toContain(`"model":"mock-model"`);
  expect(bodyOf(rig, 1)).toContain(`"model":"other-model"`);
  expect(bodyOf(rig, 2)).toContain(`"model":"other-model"`);
  expect(bodyOf(rig, 2)).toContain("hello");
}, 60_000);
