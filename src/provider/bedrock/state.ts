// Claude's reasoning on Bedrock as the history keeps it: with thinking on, the Converse API wants an
// assistant turn's reasoningContent blocks back exactly as they came (signed text, or redacted bytes),
// before its toolUse blocks. They live in the message's private wire state (`adapter.bedrock`).
import { z } from "zod";
import type { Message } from "../../contract/history.ts";

export const ReasoningBlock = z.lazy(() =>
  z.union([
    z.strictObject({ text: z.string(), signature: z.string() }),
    z.strictObject({ redacted: z.string() }),
  ]),
);
export type ReasoningBlock = z.infer<typeof ReasoningBlock>;

const BedrockState = z.object({ reasoning: z.array(ReasoningBlock) });

export function reasoningBlocksOf(msg: Message): ReasoningBlock[] {
  const parsed = BedrockState.safeParse(msg.adapter?.bedrock);
  return parsed.success ? parsed.data.reasoning : [];
}

export function withReasoningBlocks(msg: Message, blocks: ReasoningBlock[]): Message {
  if (blocks.length === 0) return msg;
  return { ...msg, adapter: { ...msg.adapter, bedrock: { reasoning: blocks } } };
}
