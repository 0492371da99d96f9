// The export formats from a history with everything a session can hold: a compaction summary, a message a
// compaction restored, a `!command`, tool calls with results and diffs, hostile text.
import { expect, test } from "bun:test";
import { SessionExport } from "../../src/contract/export.ts";
import type { History } from "../../src/contract/history.ts";
import { exportDoc } from "../../src/safety/export-doc.ts";
import { toHtml } from "../../src/safety/export-html.ts";
import { toMarkdown } from "../../src/safety/export-md.ts";

const meta = {
  id: "S1",
  workspace: "/w",
  created: "2026-01-01T00:00:00.000Z",
  updated: "2026-01-01T00:01:00.000Z",
  messages: 9,
  compactions: 1,
  title: "fix <b>it</b>",
};
const history: History = [
  { role: "system", content: "sys" },
  { role: "user", content: "the summary of before", meta: { summary: true } },
  { role: "user", content: "a file kept by compaction", meta: { restored: true } },
  { role: "user", content: "I ran this shell command myself\n$ ls\nx", meta: { shell_command: "ls" } },
  { role: "user", content: "please fix ``` the <script>x</script> thing" },
  { role: "user", content: "[approvals are now: ask]", meta: { approval_mode: "ask" } },
  {
    role: "user",
    content: "[context from the user's SessionStart hook]\nbranch",
    meta: { hook: "SessionStart" },
  },
  {
    role: "assistant",
    content: "",
    tool_calls: [
      {
        id: "c1",
        name: "edit",
        arguments: JSON.stringify({ path: "a.ts", old_text: "old", new_text: "new" }),
      },
    ],
  },
  { role: "tool", tool_call_id: "c1", content: `\`\`\` inside\n${"line\n".repeat(100)}end` },
];

test("summaries, restored messages, commands and what i added are labelled as what they are, in every format", () => {
  const doc = exportDoc(meta, history, "P0");
  expect(SessionExport.parse(doc).messages.map((m) => m.kind)).toEqual([
    "system",
    "summary",
    "restored",
    "command",
    "message",
    "added",
    "added",
    "message",
    "tool_result",
  ]);
  const md = toMarkdown(doc);
  expect(md).toContain("## Summary of the earlier conversation (written by compaction)");
  expect(md).toContain("## Restored by compaction");
  expect(md).toContain("## Your shell command");
  expect(md).toContain("## Added for the model (not typed by you)");
  expect(md).toContain("forked from `P0`");
  expect(md).toContain("-old");
  expect(md).toContain("+new");
  // A result is shortened; a fence is longer than any backtick run in the text.
  expect(md).toContain("more characters in the session");
  expect(md).toContain("````");
  const html = toHtml(doc);
  expect(html).toContain("Summary of the earlier conversation (written by compaction)");
  expect(html).toContain("Restored by compaction");
  expect(html).toContain("&#60;script&#62;x&#60;/script&#62;");
  expect(html).toContain("fix &#60;b&#62;it&#60;/b&#62;");
  expect(html).not.toMatch(/<script|<b>it/);
});
