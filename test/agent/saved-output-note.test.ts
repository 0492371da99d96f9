// The note on a cut bash result names only tools that reach the saved output: a model that does what it
// says — each tool it names, with the path it gives — gets the part it did not see, and the tools the
// note says cannot reach it (grep and find search the workspace) indeed refuse it.
import { afterEach, expect, test } from "bun:test";
import type { RecordedRequest } from "../fixtures/mock-server/index.ts";
import { makeRig, type Rig } from "./rig.ts";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const lastToolResult = (req: RecordedRequest): string => {
  const messages = (req.body as { messages: { role: string; content: unknown }[] }).messages;
  const tool = messages.filter((m) => m.role === "tool").at(-1);
  return typeof tool?.content === "string" ? tool.content : JSON.stringify(tool?.content);
};

test("every tool the saved-output note names reads the output; the ones it rules out refuse it", async () => {
  let note = "";
  const results: string[] = [];
  rig = await makeRig({
    script: (req, index) => {
      if (index === 0) return { tool_calls: [{ name: "bash", arguments: { command: "seq 1 30000" } }] };
      if (index === 1) {
        note = /\[[^\]]*is saved in [^\]]*\]/.exec(lastToolResult(req))?.[0] ?? "";
        const path = /is saved in (\S+):/.exec(note)?.[1] ?? "no path given";
        return {
          tool_calls: [
            { name: "read", arguments: { path, offset: 15000, limit: 1 } },
            { name: "bash", arguments: { command: `grep -n '^15001$' ${path}` } },
            { name: "grep", arguments: { pattern: "^15002$", path } },
          ],
        };
      }
      const messages = (req.body as { messages: { role: string; content: unknown }[] }).messages;
      for (const m of messages.filter((m) => m.role === "tool").slice(-3)) results.push(String(m.content));
      return { text: "done" };
    },
  });
  const r = await rig.run(["-p", "count", "--approve", "all"]);
  expect(r.code).toBe(0);
  // The tools named, by their names, and the ones that cannot reach the file said to be so.
  expect(note).toMatch(/`read`/);
  expect(note).toMatch(/`bash`/);
  expect(note).toMatch(/the `grep` and `find` tools search only the workspace/);
  const [read, bash, grep] = results;
  expect(read).toContain("15000");
  expect(bash).toContain("15001:15001");
  expect(grep).toMatch(/outside the workspace/);
});
