// What the commit restores (the user's messages, file snapshots) stays within the room the core sends
// (`restore_room`): a candidate with a full summary once overflowed the hard limit by a few tokens and
// stopped a long session, because the restoration was sized by fixed byte bounds alone.
import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { History, Message } from "../../../src/contract/history.ts";
import { estimateRequest } from "../../../src/lib/estimator.ts";
import { WorkerHost } from "../../../src/worker/host.ts";
import { RESTORED_LABEL } from "../../../workers/compact/restore.ts";
import { textOf } from "../../compaction/helpers.ts";
import { manifestOf, TempDirs } from "../../worker/helpers.ts";

const dirs = new TempDirs();
const configDir = dirs.make("i-compact-room-config-");
const workspace = dirs.make("i-compact-room-ws-");
const host = new WorkerHost(manifestOf(["compact"], configDir), { workspace, configDir });
const send = (event: string, data: Record<string, unknown>) => host.send("compact", event, data);
afterAll(async () => {
  await host.close();
  dirs.cleanup();
});

const FIRST = `Read every file in out/ and remember each fact. ${"Standing instruction. ".repeat(40)}`;
const LATEST = `Now the last part: ${"keep going with the rest. ".repeat(30)}`;

/** A span with the first request, three 13 KB file reads and the latest request. */
function span(): History {
  const h: History = [{ role: "system", content: "You are a test agent." }];
  h.push({ role: "user", content: FIRST });
  for (let t = 0; t < 3; t++) {
    const path = `out/t${t}.txt`;
    writeFileSync(join(workspace, path.replace("out/", "")), `${"line: nothing to see here\n".repeat(500)}`);
    h.push({
      role: "assistant",
      content: "",
      tool_calls: [
        { id: `c${t}`, name: "read", arguments: JSON.stringify({ path: path.replace("out/", "") }) },
      ],
    });
    h.push({ role: "tool", tool_call_id: `c${t}`, content: "…" });
  }
  h.push({ role: "user", content: LATEST });
  h.push({ role: "assistant", content: "on it" });
  return h;
}

async function commit(restoreRoom: number | undefined) {
  const history = span();
  const cut = history.length - 1;
  const prepared = await send("before_compact", {
    messages: history.slice(1, cut),
    cut,
    state: null,
    model: { name: "m", context_window: 16_000 },
    policy: { trigger_ratio: 0.85, rearm_ratio: 0.7 },
    workspace,
  });
  const draft: Message[] = [
    history[0] as Message,
    { role: "user", content: "[Context summary] facts", meta: { summary: true, untrusted: true } },
    ...history.slice(cut),
  ];
  const out = await send("before_compact_commit", {
    candidate: draft,
    summary: "facts",
    cut,
    state: prepared.state,
    workspace,
    ...(restoreRoom === undefined ? {} : { restore_room: restoreRoom }),
  });
  const candidate = out.candidate as Message[];
  const grew =
    estimateRequest(candidate, undefined, [], undefined).total -
    estimateRequest(draft, undefined, [], undefined).total;
  return { candidate, grew, left: out.restore_room as number | undefined };
}

const restoredTexts = (c: Message[]) =>
  c.filter((m) => m.meta?.restored === true).map((m) => textOf(m).replace(RESTORED_LABEL, "").trim());

describe("before_compact_commit within restore_room", () => {
  test("without a room (an older core) the fixed bounds alone apply: a whole 8 KiB snapshot", async () => {
    const { candidate, grew, left } = await commit(undefined);
    expect(grew).toBeGreaterThan(2_000);
    expect(textOf(candidate[1])).toContain("[Current content of t2.txt at compaction time]");
    expect(left).toBeUndefined();
  });

  for (const room of [0, 40, 150, 400, 900, 1_500, 2_500]) {
    test(`a room of ${room} tokens: the candidate grows by at most that, and says what is left`, async () => {
      const { grew, left } = await commit(room);
      expect(grew).toBeLessThanOrEqual(room);
      expect(left).toBeGreaterThanOrEqual(0);
      expect(grew).toBeLessThanOrEqual(room - (left as number));
    });
  }

  test("the user's latest request comes first, then the first one, then the files (shortened)", async () => {
    const latestOnly = await commit(300);
    expect(restoredTexts(latestOnly.candidate)).toEqual([LATEST.trim()]);
    const both = await commit(900);
    expect(restoredTexts(both.candidate)).toEqual([FIRST.trim(), LATEST.trim()]);
    expect(textOf(both.candidate[1])).toContain("[Files the agent used in the compacted part");
    const more = await commit(1_500);
    const summary = textOf(more.candidate[1]);
    expect(summary).toContain("[Current content of t2.txt at compaction time]");
    expect(summary).toMatch(/more bytes; read the file for the rest/);
  });

  test("no room: the draft comes back unchanged", async () => {
    const { grew, candidate } = await commit(0);
    expect(grew).toBe(0);
    expect(candidate).toHaveLength(3);
  });
});
