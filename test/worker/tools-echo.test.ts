// The budget request carries the tool declarations on every turn and the built-in budget module returns
// them (every hook returns its complete data). The host recognises them in the reply by their bytes, so
// the reply holds the very declaration objects sent: nothing of them is parsed or compared deep again.
import { afterAll, expect, test } from "bun:test";
import { coreToolDecls } from "../../src/tools/index.ts";
import { WorkerHost } from "../../src/worker/host.ts";
import { manifestOf, TempDirs } from "./helpers.ts";

const temp = new TempDirs();
const dir = temp.make();
const host = new WorkerHost(manifestOf(["budget"], dir), { workspace: dir, configDir: dir });
afterAll(async () => {
  await host.close();
  temp.cleanup();
});

test("the built-in budget module's reply holds the tool declarations sent, not copies", async () => {
  const tools = coreToolDecls();
  expect(JSON.stringify(tools).length).toBeGreaterThan(2048);
  const history = [
    { role: "system", content: "be brief" },
    { role: "user", content: "hello" },
  ];
  const data = {
    model: { name: "m", context_window: 100_000 },
    policy: { trigger_ratio: 0.85, rearm_ratio: 0.7 },
    system: "be brief",
    tools,
    history,
    state: { armed: true },
  };
  for (let turn = 0; turn < 2; turn++) {
    const out = await host.runHook("budget", data);
    expect(out.tools).toEqual(tools);
    const echoed = out.tools as unknown[];
    for (let i = 0; i < tools.length; i++) expect(echoed[i]).toBe(tools[i]);
    expect(out.budget).toBeDefined();
  }
});
