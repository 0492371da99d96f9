// What an MCP server changes in the workspace (the reference filesystem server's write_file) is covered by
// the turn's checkpoint like the agent's own edits: a rewind takes it back.
import { afterEach, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Session } from "../../src/session/session.ts";
import type { Rig } from "../agent/rig.ts";
import { runCliAsync } from "../helpers/cli.ts";
import { BUN, FILESYSTEM, mcpRig } from "../mcp/rig.ts";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

test("an MCP server's writes are taken back by a rewind of the turn", async () => {
  const r = await mcpRig(
    { fs: { command: BUN, args: [FILESYSTEM, "."] } },
    {
      files: { "a.txt": "original\n" },
      script: [
        {
          tool_calls: [
            { name: "mcp__fs__write_file", arguments: { path: "a.txt", content: "by the server\n" } },
            { name: "mcp__fs__write_file", arguments: { path: "new.txt", content: "new\n" } },
          ],
        },
        { text: "written" },
      ],
    },
  );
  rig = r;
  expect((await r.run(["-p", "write through the server", "--approve", "all"])).code).toBe(0);
  expect(readFileSync(join(r.workspace, "a.txt"), "utf8")).toBe("by the server\n");
  const id = Session.list(r.dataDir, r.workspace)[0]?.id as string;
  const out = await runCliAsync(["sessions", "--rewind", id, "--to", "1", "--code"], r.env);
  expect(out.code).toBe(0);
  expect(out.stdout).toContain("1 file written, 1 file removed");
  expect(readFileSync(join(r.workspace, "a.txt"), "utf8")).toBe("original\n");
  expect(existsSync(join(r.workspace, "new.txt"))).toBe(false);
}, 60_000);
