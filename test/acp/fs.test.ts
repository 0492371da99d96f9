// A client that offers fs/read_text_file and fs/write_text_file: read and edit see its unsaved buffer,
// what the tools write reaches it (and the disk, atomically, inside the workspace as always).
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type AcpRig, initialize, newSession, prompt, startAcp, updatesOf } from "./harness.ts";

let a: AcpRig | undefined;
afterEach(async () => {
  await a?.close();
  a = undefined;
});

describe("i acp: the editor's buffers through fs/*", () => {
  test("read and edit use the unsaved buffer; writes are handed to the editor", async () => {
    const buffers = new Map<string, string>();
    const writes: [string, string][] = [];
    a = await startAcp({
      script: [
        { tool_calls: [{ name: "read", arguments: { path: "a.txt" } }] },
        {
          tool_calls: [
            { name: "edit", arguments: { path: "a.txt", old_text: "unsaved", new_text: "edited" } },
          ],
        },
        { tool_calls: [{ name: "write", arguments: { path: "b.txt", content: "new file\n" } }] },
        { text: "done" },
      ],
      files: { "a.txt": "on disk\n" },
      args: ["--approve", "all"],
      fs: {
        read: (path) => {
          const b = buffers.get(path);
          if (b === undefined) throw new Error("not open");
          return b;
        },
        write: (path, content) => {
          writes.push([path, content]);
          buffers.set(path, content);
        },
      },
    });
    await initialize(a, { fs: { readTextFile: true, writeTextFile: true } });
    const s = await newSession(a);
    const file = join(a.rig.workspace, "a.txt");
    buffers.set(file, "unsaved buffer text\n");
    expect((await prompt(a, s.sessionId, "go")).stopReason).toBe("end_turn");
    // the model read the buffer, not the disk
    expect(JSON.stringify(a.rig.mock.requests[1]?.body)).toContain("1\\tunsaved buffer text");
    // the edit applied to the buffer's text, on disk and in the editor
    expect(readFileSync(file, "utf8")).toBe("edited buffer text\n");
    expect(writes).toEqual([
      [file, "edited buffer text\n"],
      [join(a.rig.workspace, "b.txt"), "new file\n"],
    ]);
    expect(readFileSync(join(a.rig.workspace, "b.txt"), "utf8")).toBe("new file\n");
    expect(updatesOf(a, "tool_call_update").filter((u) => u.status === "completed")).toHaveLength(3);
  }, 30_000);
});
