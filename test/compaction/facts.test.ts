// Acceptance: compaction forgets nothing it was shown. 1,000 tool turns through the real agent loop and
// the built-in budget and compact workers, a 32k window, 600-line tool outputs, each output planting one
// fact, and an ideal summariser (the mock keeps every fact it is shown). Every fact must be in the final
// model request, and the user's first request must be there in the user's own words, outside the summary.
import { expect, test } from "bun:test";
import { contentText } from "../../src/contract/history.ts";
import { FIRST_REQUEST, factOf, runFactsSession } from "../fixtures/facts-session.ts";

test("1,000 tool turns, 32k window: every planted fact and the user's request reach the final request", async () => {
  const r = await runFactsSession({ turns: 1000, contextWindow: 32_000, lines: 600 });
  expect(r.failures).toEqual([]);
  expect(r.missing).toEqual([]);
  expect(r.kept).toBe(1000);
  // Both stages ran: the model-free prune and the model summary.
  const routes = new Set(r.compactions.map((c) => c.route));
  expect(routes).toEqual(new Set(["prune", "model"]));
  expect(r.summaryRequests).toBeLessThan(r.compactions.length);

  const summary = r.finalMessages.find(
    (m) => m.role === "user" && contentText(m.content).includes("<summary>"),
  );
  expect(summary).toBeDefined();
  const ownWords = r.finalMessages.filter(
    (m) => m.role === "user" && m !== summary && contentText(m.content).includes(FIRST_REQUEST),
  );
  expect(ownWords.length).toBe(1);
  expect(contentText(summary?.content ?? "")).toContain(factOf(0));
}, 240_000);
