// A long single-prompt session through the real agent loop: 40 tool turns that read real files, in a
// window small enough that the built-in modules must compact several times mid-turn (model route via the
// t.mock server). The run must finish, every request must fit, and nothing may be lost from events.jsonl.
import { expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Agent } from "../../src/agent/loop.ts";
import { validateHistory } from "../../src/lib/validate-history.ts";
import { Approvals } from "../../src/tools/approvals.ts";
import { coreToolDecls } from "../../src/tools/index.ts";
import { type MockStep, startMockServer } from "../fixtures/mock-server/index.ts";
import { closedAfterEach, makeRig, openAiProvider } from "./helpers.ts";

const TOOL_TURNS = 40;
const t = closedAfterEach();

test("40 tool turns in one prompt, compacted mid-turn, finish within the window", async () => {
  t.rig = makeRig({ modules: ["budget", "compact"] });
  const r = t.rig;
  mkdirSync(join(r.workspace, "src"));
  for (let i = 0; i < TOOL_TURNS; i++) {
    writeFileSync(
      join(r.workspace, "src", `mod-${i}.ts`),
      `// module ${i}\n${`export const value${i} = ${i};\n`.repeat(60)}`,
    );
  }
  let toolTurns = 0;
  t.mock = await startMockServer({
    script: (req): MockStep => {
      const body = req.body as { tools?: unknown[] };
      if (!body.tools || body.tools.length === 0)
        return { text: `## Progress\nRead modules up to ${toolTurns - 1}.` };
      if (toolTurns < TOOL_TURNS)
        return { tool_calls: [{ name: "read", arguments: { path: `src/mod-${toolTurns++}.ts` } }] };
      return { text: "all modules read" };
    },
  });
  const tools = coreToolDecls();
  const provider = openAiProvider(t.mock.url);
  const window = { contextWindow: 16_000, maxOutput: 2_000 };
  const agent = new Agent(
    {
      provider,
      providerName: "openai",
      model: { name: "test-model", max_output_tokens: window.maxOutput },
      hooks: r.host,
      session: r.session,
      controller: r.controller({ ...window, provider }),
      tools,
      coreToolNames: new Set(tools.map((t) => t.name)),
      toolContext: { workspace: r.workspace, approvals: new Approvals({ policy: "none" }) },
      emit: (ev) => r.events.push(ev),
      maxTurns: TOOL_TURNS + 5,
    },
    [{ role: "system", content: "You are a test agent." }],
  );
  const result = await agent.send("read every module in src/");
  expect(result.text).toBe("all modules read");
  expect(result.stop).toBe("end");

  const compactions = r.events.filter((e) => e.type === "compaction" && e.phase === "done");
  expect(compactions.length).toBeGreaterThanOrEqual(2);
  expect(r.events.some((e) => e.type === "compaction" && e.phase === "failed")).toBe(false);
  const summaryRequests = t.mock.requests.filter(
    (q) => ((q.body as { tools?: unknown[] }).tools ?? []).length === 0,
  );
  expect(summaryRequests.length).toBe(compactions.length);
  // Every budget reading the loop acted on was within the hard limit once compaction had run.
  for (const q of t.mock.requests)
    expect(JSON.stringify(q.body).length / 4).toBeLessThan(window.contextWindow);

  expect(validateHistory(agent.history)).toBeUndefined();
  const log = readFileSync(join(r.session.dir, "events.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  const toolMessages = log.filter((e) => e.type === "message" && e.message.role === "tool");
  // Nothing is lost: every tool result is in the append-only log, compactions or not.
  expect(new Set(toolMessages.map((e) => e.message.tool_call_id)).size).toBe(TOOL_TURNS);
  expect(log.filter((e) => e.type === "compaction").length).toBe(compactions.length);
});
