// A rewind never overwrites what it cannot keep first: a file grown past max_file_bytes since the
// checkpoint has no copy in the store, so it is left as it is and named (an /undo could not bring it back).
import { afterEach, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CHECKPOINT_DEFAULTS } from "../../src/contract/checkpoints.ts";
import type { History } from "../../src/contract/history.ts";
import { Checkpointer } from "../../src/safety/checkpointer.ts";
import { rewindTo } from "../../src/safety/rewind.ts";
import { Session } from "../../src/session/session.ts";
import { removeDir, tempDir } from "../helpers/cli.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) removeDir(d);
});

test("a file now over max_file_bytes is left as it is and named, not overwritten without a copy", async () => {
  const ws = tempDir("i-unkept-ws-");
  const data = tempDir("i-unkept-data-");
  dirs.push(ws, data);
  writeFileSync(join(ws, "log.txt"), "small\n");
  const session = Session.create({ dataDir: data, workspace: ws });
  const cp = new Checkpointer({
    session,
    workspace: ws,
    policy: { ...CHECKPOINT_DEFAULTS, max_file_bytes: 1000 },
    warn: () => {},
  });
  const ts = "2026-01-01T00:00:01.000Z";
  let history: History = [
    { role: "system", content: "s" },
    { role: "user", content: "grow it", meta: { ts } },
  ];
  session.checkpoint(history);
  cp.beforeChange(ts);
  const big = "x".repeat(5000);
  writeFileSync(join(ws, "log.txt"), big);
  history = [...history, { role: "assistant", content: "done", meta: { ts } }];
  session.checkpoint(history);
  cp.afterTurn();
  const out = await rewindTo(
    { session, checkpoints: cp, workspace: ws, history, confirm: async () => true },
    1,
    "code",
    "rewind",
  );
  expect(readFileSync(join(ws, "log.txt"), "utf8")).toBe(big);
  expect(out.lines.join("\n")).toContain("log.txt: left as it is");
  expect(out.lines.join("\n")).toContain("max_file_bytes");
  expect(out.lines[0]).toBe("no file was written or removed");
});
