import type { CompactionController } from "../compaction/controller.ts";
import { errorMessage } from "../contract/errors.ts";
import type { EmitEvent } from "../contract/events.ts";
import type { History, Message } from "../contract/history.ts";
import { contentText } from "../contract/history.ts";
import { assertValidHistory } from "../contract/lib/validate-history.ts";
import { SteerReply } from "../contract/steering.ts";
import { type Provider, ProviderError, type Usage } from "../provider/types.ts";
import type { Session } from "../session/session.ts";
import type { ToolContext, ToolDecl } from "../tools/types.ts";
import { WorkerError } from "../worker/errors.ts";
import type { HookRunner } from "../worker/types.ts";
import { runToolBatch } from "./tool-calls.ts";

export interface AgentDeps {
  provider: Provider;
  providerName: string;
  model: { name: string; max_output_tokens?: number };
  hooks: HookRunner;
  session: Session;
  controller: CompactionController;
  /** core + module tool declarations offered to the model */
  tools: ToolDecl[];
  coreToolNames: ReadonlySet<string>;
  toolContext: Omit<ToolContext, "signal">;
  emit: EmitEvent;
  maxTurns: number;
  /** estimated tokens one tool result may take (result-cap.ts) */
  resultTokenCap?: number;
}

export interface TurnResult {
  text: string;
  stop: "end" | "max_turns" | "cancelled" | "length";
  turns: number;
  usage: Usage;
}

const now = () => new Date().toISOString();

/** Times a reply stopped by the output limit is continued before the turn ends with what there is. */
export const MAX_LENGTH_CONTINUATIONS = 3;
/** What the core says to have a reply cut off by the output limit continued (a user message, marked). */
export const CONTINUE_PROMPT =
  "[Your previous reply was cut off by the output limit. Continue exactly where it stopped, without repeating anything.]";

export class Agent {
  private usage: Usage = { input_tokens: 0, output_tokens: 0 };

  constructor(
    private readonly deps: AgentDeps,
    public history: History,
  ) {}

  private checkpoint(reason: string): void {
    this.deps.session.checkpoint(this.history);
    if (this.deps.hooks.hasHook("checkpoint")) {
      // Notification only: the checkpoint is already durable, so a failing observer cannot lose anything.
      this.deps.hooks
        .runHook("checkpoint", { session_id: this.deps.session.id, messages: this.history.length, reason })
        .catch((err: unknown) =>
          this.deps.emit({ type: "notice", level: "warn", message: `checkpoint hook: ${errorMessage(err)}` }),
        );
    }
  }

  /** Messages the user typed while the turn ran, delivered at this safe point by the steering module. */
  /** Messages the steering module has queued since the last call, marked delivered by it. */
  async pullSteered(): Promise<string[]> {
    if (!this.deps.hooks.hasHook("steer")) return [];
    const data = await this.deps.hooks.runHook("steer", { messages: [] });
    // The worker has already recorded these as delivered: a reply that cannot be read is an error, never
    // a silent loss of what the user typed.
    const parsed = SteerReply.safeParse(data);
    if (!parsed.success) {
      throw new WorkerError(
        "steering",
        "steer",
        "malformed",
        'the reply\'s data.messages must be a list of {"id","text"} messages; the queued messages could not be delivered',
      );
    }
    return (parsed.data.messages ?? [])
      .map((m) => (typeof m === "string" ? m : m.text))
      .filter((text) => text.trim() !== "");
  }

  /** Messages the user typed while the turn ran, delivered at this safe point; how many were added. */
  private async steer(): Promise<number> {
    const texts = await this.pullSteered();
    for (const text of texts) {
      this.history.push({ role: "user", content: text, meta: { ts: now(), steered: true } });
      this.deps.emit({ type: "notice", level: "info", message: `delivered to the model: ${text}` });
    }
    if (texts.length > 0) this.checkpoint("steer");
    return texts.length;
  }

  private async requestHints(): Promise<Record<string, unknown>> {
    if (!this.deps.hooks.hasHook("before_request")) return {};
    const data = await this.deps.hooks.runHook("before_request", {
      provider: this.deps.providerName,
      model: this.deps.model.name,
      messages: this.history,
      hints: {},
    });
    const hints = data.hints;
    return hints && typeof hints === "object" && !Array.isArray(hints)
      ? (hints as Record<string, unknown>)
      : {};
  }

  private addUsage(u: Usage | undefined): void {
    if (!u) return;
    this.usage.input_tokens += u.input_tokens;
    this.usage.output_tokens += u.output_tokens;
  }

  /** Manual compaction (`/compact [instructions]`, `i compact`). */
  async compact(instructions?: string): Promise<void> {
    this.history = await this.deps.controller.compactNow(
      this.history,
      this.deps.tools,
      instructions ? { instructions } : {},
    );
  }

  /** One user message, then requests and tool batches until the model stops. */
  async send(content: Message["content"], signal?: AbortSignal): Promise<TurnResult> {
    const { deps } = this;
    this.history.push({ role: "user", content, meta: { ts: now() } });
    this.checkpoint("user");
    let recovered = false;
    let turns = 0;
    // Length recovery: the text of replies cut off by the output limit, continued up to the bound.
    let continued = "";
    let continuations = 0;
    while (turns < deps.maxTurns) {
      if (signal?.aborted) return this.finish("", "cancelled", turns);
      await this.steer();
      turns++;
      deps.emit({ type: "turn_start", turn: turns });
      this.history = await deps.controller.prepareRequest(this.history, deps.tools);
      assertValidHistory(this.history);
      const hints = await this.requestHints();
      let res: Awaited<ReturnType<Provider["stream"]>>;
      try {
        res = await deps.provider.stream(
          {
            model: deps.model.name,
            messages: this.history,
            tools: deps.tools,
            ...(deps.model.max_output_tokens ? { max_output_tokens: deps.model.max_output_tokens } : {}),
            ...(signal ? { signal } : {}),
            hints,
          },
          (ev) => {
            if (ev.type === "text_delta") deps.emit({ type: "text_delta", text: ev.text });
            else if (ev.type === "retry") deps.emit(ev);
          },
        );
      } catch (err) {
        if (err instanceof ProviderError && err.kind === "cancelled")
          return this.finish("", "cancelled", turns);
        if (err instanceof ProviderError && err.kind === "context_overflow" && !recovered) {
          // Compact once, retry once (seed 002: overflow recovery); a second overflow is an error.
          recovered = true;
          turns--;
          this.history = await deps.controller.recoverFromOverflow(this.history, deps.tools);
          continue;
        }
        throw err;
      }
      this.addUsage(res.usage);
      if (res.usage) deps.controller.recordUsage(res.usage, this.history.length);
      const assistant: Message = {
        ...res.message,
        meta: { ...res.message.meta, ts: now(), ...(res.usage ? { usage: res.usage } : {}) },
      };
      this.history.push(assistant);
      deps.emit({ type: "assistant", message: assistant });
      const calls = assistant.tool_calls ?? [];
      if (calls.length === 0) {
        const text = continued + contentText(assistant.content);
        if (res.stop === "length" && continuations < MAX_LENGTH_CONTINUATIONS && !signal?.aborted) {
          continuations++;
          continued = text;
          deps.emit({
            type: "notice",
            level: "warn",
            message: `the reply reached the output limit; asking the model to continue it (${continuations}/${MAX_LENGTH_CONTINUATIONS})`,
          });
          this.history.push({
            role: "user",
            content: CONTINUE_PROMPT,
            meta: { ts: now(), continuation: true },
          });
          this.checkpoint("continuation");
          continue;
        }
        this.checkpoint("final");
        // The end of a turn is a safe point too: what the user typed meanwhile is answered, not left queued.
        if (!signal?.aborted && (await this.steer()) > 0) continue;
        if (res.stop === "length") {
          deps.emit({
            type: "notice",
            level: "warn",
            message: `the reply was still cut off by the output limit after ${MAX_LENGTH_CONTINUATIONS} continuations`,
          });
        }
        return this.finish(text, res.stop === "length" ? "length" : "end", turns);
      }
      const results = await runToolBatch(calls, {
        hooks: deps.hooks,
        coreNames: deps.coreToolNames,
        ctx: { ...deps.toolContext, ...(signal ? { signal } : {}) },
        emit: deps.emit,
        ...(deps.resultTokenCap !== undefined ? { resultTokenCap: deps.resultTokenCap } : {}),
      });
      this.history.push(...results);
      this.checkpoint("tool_batch");
    }
    deps.emit({
      type: "notice",
      level: "warn",
      message: `stopped after ${deps.maxTurns} model requests (--max-turns)`,
    });
    return this.finish("", "max_turns", turns);
  }

  private finish(text: string, stop: TurnResult["stop"], turns: number): TurnResult {
    const usage = { ...this.usage };
    this.deps.emit({ type: "done", text, turns, usage });
    return { text, stop, turns, usage };
  }
}
