// A stdio server's large result (a 20 MB file read by the reference filesystem server) is not a crash:
// the worker takes the whole message, cuts the text to its cap with a note, and the server — its state
// kept — answers the next call.
import { afterEach, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { MessageLines } from "../../workers/mcp/message-lines.ts";
import type { Rig } from "../agent/rig.ts";
import { BUN, FILESYSTEM, mcpRig, toolResults } from "./rig.ts";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

test("a 20 MB result is cut with a note; the server stays up for the next call", async () => {
  rig = await mcpRig(
    { fs: { command: BUN, args: [FILESYSTEM, "."] } },
    {
      files: { "small.txt": "after the big one\n" },
      script: [
        { tool_calls: [{ name: "mcp__fs__read_text_file", arguments: { path: "big.txt" } }] },
        { tool_calls: [{ name: "mcp__fs__read_text_file", arguments: { path: "small.txt" } }] },
        { text: "ok" },
      ],
    },
  );
  writeFileSync(join(rig.workspace, "big.txt"), `${"0123456789abcdef".repeat(64)}\n`.repeat(20 * 1024));
  const r = await rig.run(["-p", "go", "--approve", "all"]);
  expect(r.code).toBe(0);
  const results = toolResults(rig);
  expect(results[0]).not.toContain("crashed");
  expect(results[0]).toContain("the result was too large");
  expect(results[1]).toContain("after the big one");
  expect(r.stderr).not.toContain("crashed");
}, 90_000);

test("a message past the cap is skipped to its end: its call gets an error naming the cap, the next one is read", () => {
  const parse = (line: string) => JSON.parse(line);
  const lines = new MessageLines(parse, 1000);
  const big = JSON.stringify({
    result: { content: [{ type: "text", text: "x".repeat(5000) }] },
    jsonrpc: "2.0",
    id: 7,
  });
  const small = JSON.stringify({ result: {}, jsonrpc: "2.0", id: 8 });
  // in pieces, as a pipe delivers them
  const all = Buffer.from(`${big}\n${small}\n`);
  for (let i = 0; i < all.length; i += 333) lines.append(all.subarray(i, i + 333));
  const first = lines.readMessage() as { id: number; error: { message: string } };
  expect(first.id).toBe(7);
  expect(first.error.message).toContain("the result was larger than");
  expect(lines.readMessage()).toEqual({ result: {}, jsonrpc: "2.0", id: 8 });
  expect(lines.readMessage()).toBeNull();
});
