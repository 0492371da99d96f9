// Synthetic agent sessions for the compaction benchmarks: turns of user → assistant tool call → tool
// result → assistant text, with realistic mixed content (code-like tool output), sized by token target.
import type { History } from "../../src/contract/history.ts";

const LINE = "  const value = compute(input, options); // keep the result for the next step\n";

/** About `tokens` tokens (chars/4) spread over `messages` messages (rounded to whole 4-message turns). */
export function benchHistory(messages: number, tokens: number): History {
  const turns = Math.max(1, Math.floor(messages / 4));
  const toolChars = Math.max(100, Math.floor((tokens * 4) / turns) - 200);
  const output = LINE.repeat(Math.ceil(toolChars / LINE.length)).slice(0, toolChars);
  const h: History = [{ role: "system", content: "You are a coding agent working in a test workspace." }];
  for (let t = 0; t < turns; t++) {
    h.push({ role: "user", content: `step ${t}: inspect src/module-${t}.ts and report` });
    h.push({
      role: "assistant",
      content: "",
      tool_calls: [
        { id: `call_${t}`, name: "read", arguments: JSON.stringify({ path: `src/module-${t}.ts` }) },
      ],
    });
    h.push({ role: "tool", tool_call_id: `call_${t}`, content: `${t}\n${output}` });
    h.push({ role: "assistant", content: `module ${t} reviewed; nothing to change.` });
  }
  return h;
}
