// Anthropic extended thinking as the history keeps it. The API signs every thinking block and, while
// thinking is on, wants the blocks of an assistant turn sent back exactly as they came, before its
// tool_use blocks; so they live in the message's private wire state (`adapter.anthropic.thinking`,
// saved with the session, never shown to a summariser), their text also in `meta.reasoning` for display.
import { z } from "zod";
import type { Message } from "../contract/history.ts";

export const ThinkingBlock = z.lazy(() =>
  z.discriminatedUnion("type", [
    z.strictObject({ type: z.literal("thinking"), thinking: z.string(), signature: z.string() }),
    /** thinking the provider encrypted: only its data travels, and it is sent back unread */
    z.strictObject({ type: z.literal("redacted_thinking"), data: z.string() }),
  ]),
);
export type ThinkingBlock = z.infer<typeof ThinkingBlock>;

const AnthropicState = z.object({ thinking: z.array(ThinkingBlock) });

/** The message's thinking blocks, in the order the model produced them; none when absent or malformed. */
export function thinkingBlocksOf(msg: Message): ThinkingBlock[] {
  const parsed = AnthropicState.safeParse(msg.adapter?.anthropic);
  return parsed.success ? parsed.data.thinking : [];
}

/** `msg` with `blocks` kept in its wire state (other wires' state untouched). */
export function withThinkingBlocks(msg: Message, blocks: ThinkingBlock[]): Message {
  if (blocks.length === 0) return msg;
  return { ...msg, adapter: { ...msg.adapter, anthropic: { thinking: blocks } } };
}

/** One block being streamed: the text and signature grow by deltas; a redacted one arrives whole. */
export class ThinkingAssembly {
  private readonly blocks = new Map<number, ThinkingBlock>();

  start(index: number, block: ThinkingBlock): void {
    this.blocks.set(index, { ...block });
  }

  thinking(index: number, delta: string): void {
    const b = this.blocks.get(index);
    if (b?.type === "thinking") b.thinking += delta;
  }

  signature(index: number, delta: string): void {
    const b = this.blocks.get(index);
    if (b?.type === "thinking") b.signature += delta;
  }

  /** The blocks by their position in the reply. */
  done(): ThinkingBlock[] {
    return [...this.blocks.entries()].sort(([a], [b]) => a - b).map(([, block]) => block);
  }
}
