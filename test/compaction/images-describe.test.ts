// images: "describe" through the whole pipeline: old images go to the summary request as summary_images
// and come back as text in the summary; none stays in the compacted history. A text-only model falls back
// to omit and the user is told.
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { CompactionController } from "../../src/compaction/controller.ts";
import type { AgentEvent } from "../../src/contract/events.ts";
import type { History, Message } from "../../src/contract/history.ts";
import { type RecordedRequest, startMockServer } from "../fixtures/mock-server/index.ts";
import { closedAfterEach, makeRig, openAiProvider, type Rig, syntheticHistory, textOf } from "./helpers.ts";

const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

const t = closedAfterEach();

/** A session whose early tool result is a screenshot. */
function historyWithImage(): History {
  const h = syntheticHistory({ turns: 12 });
  h[3] = {
    role: "tool",
    tool_call_id: "call_0",
    content: [
      { type: "text", text: "screenshot of the login page" },
      { type: "image", media_type: "image/png", data: PNG },
    ],
  } as Message;
  return h;
}

function imageParts(req: RecordedRequest | undefined): number {
  const messages = (req?.body as { messages?: { content: unknown }[] } | undefined)?.messages ?? [];
  return messages
    .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
    .filter((p) => (p as { type?: string }).type === "image_url").length;
}

function controllerFor(r: Rig, images: "keep" | "omit", events: AgentEvent[], url: string) {
  return new CompactionController({
    hooks: r.host,
    provider: openAiProvider(url),
    model: {
      name: images === "omit" ? "text-only-model" : "vision-model",
      context_window: 100_000,
      images,
      image_tokens: 100,
    },
    policy: { trigger_ratio: 0.85, rearm_ratio: 0.7 },
    workspace: r.workspace,
    session: r.session,
    emit: (ev) => events.push(ev),
    manifest: r.manifest,
  });
}

test("describe: the image goes to the summariser and comes back as words in the summary", async () => {
  t.rig = makeRig({ modules: ["budget", "compact"] });
  writeFileSync(join(t.rig.configDir, "compact.json"), JSON.stringify({ images: "describe" }));
  t.mock = await startMockServer({
    script: (req) => ({
      text:
        imageParts(req) > 0
          ? "## Goal\nCheck the login page.\n## Images\nimage #1: the login page with a red 'invalid token' banner"
          : "## Goal\nCheck the login page.",
    }),
  });
  const history = historyWithImage();
  t.rig.session.checkpoint(history);
  const events: AgentEvent[] = [];
  const out = await controllerFor(t.rig, "keep", events, t.mock.url).compactNow(history, []);

  expect(t.mock.requests.length).toBe(1);
  expect(imageParts(t.mock.requests[0])).toBe(1);
  const body = JSON.stringify(t.mock.requests[0]?.body);
  expect(body).toContain("describe it in the summary");
  expect(body).toContain('describe each one under \\"## Images\\"');
  const summary = out[1] as Message;
  expect(textOf(summary)).toContain("image #1: the login page with a red 'invalid token' banner");
  // Described, not retained: no image bytes left in the compacted part of the history.
  expect(typeof summary.content).toBe("string");
  expect(JSON.stringify(out)).not.toContain(PNG);
});

test("describe on a text-only model: the images are omitted and the user is told", async () => {
  t.rig = makeRig({ modules: ["budget", "compact"] });
  writeFileSync(join(t.rig.configDir, "compact.json"), JSON.stringify({ images: "describe" }));
  t.mock = await startMockServer({ script: [{ text: "## Goal\nCheck the login page." }] });
  const history = historyWithImage();
  t.rig.session.checkpoint(history);
  const events: AgentEvent[] = [];
  const out = await controllerFor(t.rig, "omit", events, t.mock.url).compactNow(history, []);
  expect(imageParts(t.mock.requests[0])).toBe(0);
  expect(JSON.stringify(t.mock.requests[0]?.body)).toContain("omitted");
  const notice = events.find((e) => e.type === "notice" && e.message.includes("text-only"));
  expect(notice).toMatchObject({
    level: "info",
    message: expect.stringContaining("model text-only-model is text-only"),
  });
  expect(JSON.stringify(out)).not.toContain(PNG);
});
