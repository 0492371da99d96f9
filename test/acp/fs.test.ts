// A client that offers fs/read_text_file and fs/write_text_file: read, edit and apply_patch see its
// unsaved buffer, what the tools write reaches it (and the disk, atomically, inside the workspace as always).
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type AcpRig, initialize, newSession, prompt, startAcp, updatesOf } from "./harness.ts";

let a: AcpRig | undefined;
afterEach(async () => {
  await a?.close();
  a = undefined;
});

/** An editor's open buffers, as its fs/* methods serve them: what was read and written is recorded. */
function editorBuffers() {
  const buffers = new Map<string, string>();
  const reads: string[] = [];
  const writes: [string, string][] = [];
  const fs = {
    read: (path: string) => {
      reads.push(path);
      const b = buffers.get(path);
      if (b === undefined) throw new Error("not open");
      return b;
    },
    write: (path: string, content: string) => {
      writes.push([path, content]);
      buffers.set(path, content);
    },
  };
  return { buffers, reads, writes, fs };
}

describe("i acp: the editor's buffers through fs/*", () => {
  test("read and edit use the unsaved buffer; writes are handed to the editor", async () => {
    const { buffers, writes, fs } = editorBuffers();
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
      fs,
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

describe("i acp: apply_patch through the editor's buffers", () => {
  test("the patch applies to the unsaved buffer, reaches the editor, stays confined and undoes", async () => {
    const { buffers, reads, writes, fs } = editorBuffers();
    const patch = (body: string) => ({
      tool_calls: [{ name: "apply_patch", arguments: { input: `*** Begin Patch\n${body}*** End Patch` } }],
    });
    a = await startAcp({
      script: [
        patch(
          "*** Update File: a.txt\n-unsaved buffer text\n+patched buffer text\n*** Add File: c.txt\n+added\n",
        ),
        patch("*** Update File: ../outside.txt\n-x\n+y\n"),
        { text: "done" },
      ],
      files: { "a.txt": "on disk\n" },
      config: {
        models: {
          "mock-model": { context_window: 100_000, max_output_tokens: 4096, edit_tool: "apply_patch" },
        },
      },
      args: ["--approve", "all"],
      fs,
    });
    const outside = join(a.rig.root, "outside.txt");
    writeFileSync(outside, "x\n");
    await initialize(a, { fs: { readTextFile: true, writeTextFile: true } });
    const s = await newSession(a);
    const file = join(a.rig.workspace, "a.txt");
    buffers.set(file, "unsaved buffer text\n");
    expect((await prompt(a, s.sessionId, "go")).stopReason).toBe("end_turn");
    const tools = a.rig.mock.requests[0]?.body as { tools?: { function: { name: string } }[] } | undefined;
    expect(tools?.tools?.map((t) => t.function.name)).toContain("apply_patch");
    // the hunk matched the buffer's text (the disk's would not have), and the result went to the editor
    expect(readFileSync(file, "utf8")).toBe("patched buffer text\n");
    expect(writes).toEqual([
      [file, "patched buffer text\n"],
      [join(a.rig.workspace, "c.txt"), "added\n"],
    ]);
    // a path out of the workspace is refused before the editor is asked about it
    expect(JSON.stringify(a.rig.mock.requests[2]?.body)).toContain("outside the workspace");
    expect(reads).toEqual([file]);
    expect(readFileSync(outside, "utf8")).toBe("x\n");
    // checkpointed as every change: /undo puts the disk back as it was before the turn
    expect((await prompt(a, s.sessionId, "/undo")).stopReason).toBe("end_turn");
    expect(readFileSync(file, "utf8")).toBe("on disk\n");
    expect(existsSync(join(a.rig.workspace, "c.txt"))).toBe(false);
  }, 30_000);
});
