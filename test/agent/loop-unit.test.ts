// The agent loop on its own: a scripted provider, a hook runner that answers in memory, and in-memory
// session and compaction ports. No subprocess, no socket, no HTTP server: each test runs in milliseconds.
// Tool batches, interrupts, overflow retry, the compaction trigger and steering, as the loop sees them.
import { describe, expect, test } from "bun:test";
import { Agent, type AgentDeps, CONTINUE_PROMPT } from "../../src/agent/loop.ts";
import type { AgentCompaction, AgentSession } from "../../src/agent/ports.ts";
import type { RestoreOutcome } from "../../src/compaction/uncompact.ts";
import type { AgentEvent } from "../../src/contract/events.ts";
import type { History, Message, ToolCall } from "../../src/contract/history.ts";
import type { HookReply } from "../../src/contract/hooks.ts";
import type { HookEvent, ToolDecl, ToolResult } from "../../src/contract/protocol.ts";
import {
  type ModelRequest,
  type ModelResponse,
  type Provider,
  ProviderError,
  type StreamEvent,
} from "../../src/provider/types.ts";
import { Approvals } from "../../src/tools/approvals.ts";
import type { DispatchSeams } from "../../src/tools/dispatch.ts";
import type { HookData, HookRunner } from "../../src/worker/types.ts";

type Step = (req: ModelRequest, onEvent: (ev: StreamEvent) => void) => Promise<ModelResponse>;

/** Replies in order; records each request as it was sent (the history copied at that moment). */
class ScriptedProvider implements Provider {
  readonly name = "openai" as const;
  readonly requests: { messages: History; tools: string[]; signal?: AbortSignal }[] = [];
  constructor(private readonly steps: Step[]) {}
  stream(req: ModelRequest, onEvent?: (ev: StreamEvent) => void): Promise<ModelResponse> {
    this.requests.push({
      messages: structuredClone(req.messages),
      tools: req.tools.map((t) => t.name),
      ...(req.signal ? { signal: req.signal } : {}),
    });
    const step = this.steps.shift();
    if (!step) throw new Error("more model requests than scripted");
    return step(req, onEvent ?? (() => {}));
  }
}

const text =
  (t: string, stop: ModelResponse["stop"] = "end"): Step =>
  async (_req, onEvent) => {
    onEvent({ type: "text_delta", text: t });
    return {
      message: { role: "assistant", content: t },
      stop,
      usage: { input_tokens: 10, output_tokens: 2 },
    };
  };
const calls =
  (...tc: ToolCall[]): Step =>
  async () => ({ message: { role: "assistant", content: "", tool_calls: tc }, stop: "tool_calls" });
const fail =
  (err: ProviderError): Step =>
  () =>
    Promise.reject(err);

const LOOKUP: ToolDecl = {
  name: "lookup",
  description: "look a word up",
  input_schema: {
    type: "object",
    properties: { word: { type: "string" } },
    required: ["word"],
    additionalProperties: false,
  },
};

/** A hook runner in memory: a `lookup` module tool, and a steering queue when asked for. */
class FakeHooks implements HookRunner {
  readonly steerQueue: string[] = [];
  readonly toolCalls: unknown[] = [];
  readonly checkpoints: HookData[] = [];
  onTool: (args: unknown) => Promise<ToolResult> = async (args) => ({
    content: `meaning of ${(args as { word: string }).word}`,
    is_error: false,
  });
  constructor(private readonly events: HookEvent[] = []) {}
  hasHook(event: HookEvent): boolean {
    return this.events.includes(event);
  }
  async runHook<E extends HookEvent>(event: E, data: HookData): Promise<HookReply<E>> {
    if (event === "steer") {
      const messages = this.steerQueue.splice(0);
      return { messages } as HookReply<E>;
    }
    if (event === "checkpoint") {
      this.checkpoints.push(data);
      return {} as HookReply<E>;
    }
    throw new Error(`unexpected hook ${event}`);
  }
  callTool(_name: string, args: unknown): Promise<ToolResult> {
    this.toolCalls.push(args);
    return this.onTool(args);
  }
  toolDecls(): ToolDecl[] {
    return [LOOKUP];
  }
  async close(): Promise<void> {}
}

class MemorySession implements AgentSession {
  readonly id = "s-unit";
  readonly saved: number[] = [];
  checkpoint(history: History): void {
    this.saved.push(history.length);
  }
  async checkpointSyncLater(history: History): Promise<void> {
    this.saved.push(history.length);
  }
}

/** Compaction in memory: compacts (to the system message and the last message) when told to. */
class MemoryCompaction implements AgentCompaction {
  compactBeforeRequest = false;
  readonly signals: (AbortSignal | undefined)[] = [];
  overflows = 0;
  async prepareRequest(history: History, _tools: ToolDecl[], signal?: AbortSignal): Promise<History> {
    this.signals.push(signal);
    if (!this.compactBeforeRequest) return history;
    this.compactBeforeRequest = false;
    return this.cut(history);
  }
  async recoverFromOverflow(history: History): Promise<History> {
    this.overflows++;
    return this.cut(history);
  }
  async compactNow(history: History): Promise<History> {
    return this.cut(history);
  }
  async uncompact(): Promise<RestoreOutcome> {
    return { ok: false, why: "nothing to restore in memory" };
  }
  recompact(): RestoreOutcome {
    return { ok: false, why: "nothing to restore in memory" };
  }
  recordUsage(): void {}
  setModel(): void {}
  async measure(): Promise<void> {}
  private cut(history: History): History {
    const summary: Message = { role: "user", content: "[summary]", meta: { summary: true } };
    return [history[0] as Message, summary, ...history.slice(-1)];
  }
}

function agentWith(
  provider: Provider,
  opts: { hooks?: FakeHooks; seams?: DispatchSeams; maxTurns?: number } = {},
) {
  const events: AgentEvent[] = [];
  const hooks = opts.hooks ?? new FakeHooks();
  const session = new MemorySession();
  const controller = new MemoryCompaction();
  const deps: AgentDeps = {
    provider,
    providerName: "openai",
    model: { name: "unit-model" },
    hooks,
    session,
    controller,
    tools: [LOOKUP],
    coreToolNames: new Set(),
    toolContext: { workspace: "/nonexistent", approvals: new Approvals({ policy: "none" }) },
    emit: (ev) => events.push(ev),
    maxTurns: opts.maxTurns ?? 10,
    ...(opts.seams ? { toolSeams: opts.seams } : {}),
  };
  const agent = new Agent(deps, [{ role: "system", content: "sys" }]);
  return { agent, events, hooks, session, controller };
}

const roles = (h: History) => h.map((m) => m.role);
const kinds = (events: AgentEvent[]) => events.map((e) => e.type);

describe("tool batches", () => {
  test("every call of a batch answered in order, then the next request sees the results", async () => {
    const p = new ScriptedProvider([
      calls(
        { id: "a", name: "lookup", arguments: '{"word":"loop"}' },
        { id: "b", name: "nope", arguments: "{}" },
        { id: "c", name: "lookup", arguments: '{"word":1}' },
      ),
      text("done"),
    ]);
    const { agent, events, hooks, session } = agentWith(p);
    const r = await agent.send("go");
    expect(r).toMatchObject({ text: "done", stop: "end", turns: 2 });
    expect(roles(agent.history)).toEqual([
      "system",
      "user",
      "assistant",
      "tool",
      "tool",
      "tool",
      "assistant",
    ]);
    const results = agent.history.filter((m) => m.role === "tool");
    expect(results.map((m) => [m.tool_call_id, m.content, m.meta?.is_error ?? false])).toEqual([
      ["a", "meaning of loop", false],
      ["b", 'unknown tool "nope"; available tools: lookup', true],
      ["c", "invalid arguments for lookup: word: Invalid input: expected string, received number", true],
    ]);
    expect(hooks.toolCalls).toEqual([{ word: "loop" }]);
    expect(roles(p.requests[1]?.messages ?? [])).toEqual(roles(agent.history).slice(0, -1));
    expect(kinds(events).filter((k) => k.startsWith("tool_"))).toEqual([
      "tool_call",
      "tool_result",
      "tool_call",
      "tool_result",
      "tool_call",
      "tool_result",
    ]);
    // user, the batch, the final reply: each saved.
    expect(session.saved).toEqual([2, 6, 7]);
  });

  test("the dispatch seams are the agent's: a block reaches the model as that call's error", async () => {
    const p = new ScriptedProvider([
      calls({ id: "a", name: "lookup", arguments: '{"word":"x"}' }),
      text("ok"),
    ]);
    const { agent, hooks } = agentWith(p, {
      seams: { beforeCall: async () => ({ block: "not today" }) },
    });
    await agent.send("go");
    expect(agent.history[3]?.content).toBe("lookup was blocked before it ran: not today");
    expect(hooks.toolCalls).toEqual([]);
  });

  test("--max-turns ends a turn that keeps calling tools", async () => {
    const again = calls({ id: "a", name: "lookup", arguments: '{"word":"x"}' });
    const p = new ScriptedProvider([again, again]);
    const { agent, events } = agentWith(p, { maxTurns: 2 });
    const r = await agent.send("go");
    expect(r.stop).toBe("max_turns");
    expect(events.some((e) => e.type === "notice" && e.message.includes("--max-turns"))).toBe(true);
  });
});

describe("interrupt", () => {
  test("cancelled while streaming: what the user saw is kept, marked, and the model will see it", async () => {
    const abort = new AbortController();
    const p = new ScriptedProvider([
      async (req, onEvent) => {
        onEvent({ type: "text_delta", text: "half a rep" });
        abort.abort();
        expect(req.signal?.aborted).toBe(true);
        const err = new ProviderError("cancelled", "cancelled");
        err.partialText = "half a rep";
        throw err;
      },
    ]);
    const { agent } = agentWith(p);
    const r = await agent.send("go", abort.signal);
    expect(r.stop).toBe("cancelled");
    expect(roles(agent.history)).toEqual(["system", "user", "assistant", "user"]);
    expect(agent.history[2]).toMatchObject({ meta: { partial: true } });
    expect(String(agent.history[2]?.content)).toStartWith("half a rep");
    expect(agent.history[3]?.meta?.interrupted).toBe(true);
  });

  test("cancelled during a tool batch: the running call and the rest are answered, then the turn ends", async () => {
    const abort = new AbortController();
    const hooks = new FakeHooks();
    // The module tool never answers: the cancel must not wait for it.
    hooks.onTool = () => {
      abort.abort();
      return new Promise<ToolResult>(() => {});
    };
    const p = new ScriptedProvider([
      calls(
        { id: "a", name: "lookup", arguments: '{"word":"x"}' },
        { id: "b", name: "lookup", arguments: '{"word":"y"}' },
      ),
    ]);
    const { agent } = agentWith(p, { hooks });
    const r = await agent.send("go", abort.signal);
    expect(r.stop).toBe("cancelled");
    expect(agent.history.filter((m) => m.role === "tool").map((m) => m.content)).toEqual([
      "cancelled by the user while lookup ran; whatever it returns later is discarded",
      "cancelled by the user before it ran",
    ]);
    expect(agent.history.at(-1)?.meta?.interrupted).toBe(true);
    expect(p.requests.length).toBe(1);
  });
});

describe("retry", () => {
  test("a context overflow compacts once and the request is sent again", async () => {
    const p = new ScriptedProvider([fail(new ProviderError("context_overflow", "too long")), text("fits")]);
    const { agent, controller } = agentWith(p);
    const r = await agent.send("go");
    expect(r).toMatchObject({ text: "fits", turns: 1 });
    expect(controller.overflows).toBe(1);
    expect(p.requests[1]?.messages.map((m) => m.content)).toEqual(["sys", "[summary]", "go"]);
  });

  test("a second overflow is the provider's error: compaction cannot make it fit", async () => {
    const overflow = fail(new ProviderError("context_overflow", "too long"));
    const { agent, controller } = agentWith(new ScriptedProvider([overflow, overflow]));
    await expect(agent.send("go")).rejects.toThrow("too long");
    expect(controller.overflows).toBe(1);
  });

  test("a failure after streamed text keeps that text, marked as cut off by the failure", async () => {
    const err = new ProviderError("network", "connection reset");
    err.partialText = "so far";
    const { agent } = agentWith(new ScriptedProvider([fail(err)]));
    await expect(agent.send("go")).rejects.toThrow("connection reset");
    expect(agent.history.at(-1)).toMatchObject({
      role: "assistant",
      content: "so far\n\n[reply cut off here: connection reset]",
    });
  });

  test("the provider's own retries are shown as events", async () => {
    const p = new ScriptedProvider([
      async (req, onEvent) => {
        onEvent({ type: "retry", attempt: 1, delay_ms: 5, reason: "server busy" });
        return text("after retry")(req, onEvent);
      },
    ]);
    const { agent, events } = agentWith(p);
    await agent.send("go");
    expect(events.find((e) => e.type === "retry")).toMatchObject({ attempt: 1, reason: "server busy" });
  });

  test("a reply cut by the output limit is continued, and the pieces make the turn's text", async () => {
    const p = new ScriptedProvider([text("first ", "length"), text("second")]);
    const { agent } = agentWith(p);
    const r = await agent.send("go");
    expect(r.text).toBe("first second");
    expect(p.requests[1]?.messages.at(-1)?.content).toBe(CONTINUE_PROMPT);
  });
});

describe("compaction trigger", () => {
  test("prepareRequest runs before every request, with the turn's signal", async () => {
    const abort = new AbortController();
    const p = new ScriptedProvider([
      calls({ id: "a", name: "lookup", arguments: '{"word":"x"}' }),
      text("ok"),
    ]);
    const { agent, controller } = agentWith(p);
    await agent.send("go", abort.signal);
    expect(controller.signals).toEqual([abort.signal, abort.signal]);
  });

  test("what a due compaction returns is what the request carries and the history keeps", async () => {
    const p = new ScriptedProvider([text("short")]);
    const { agent, controller } = agentWith(p);
    controller.compactBeforeRequest = true;
    await agent.send("go");
    expect(p.requests[0]?.messages.map((m) => m.content)).toEqual(["sys", "[summary]", "go"]);
    expect(agent.history.map((m) => m.content)).toEqual(["sys", "[summary]", "go", "short"]);
  });

  test("a manual compaction replaces the history", async () => {
    const { agent } = agentWith(new ScriptedProvider([text("a")]));
    await agent.send("one");
    await agent.compact("keep names");
    expect(agent.history.map((m) => m.content)).toEqual(["sys", "[summary]", "a"]);
  });
});

describe("steering", () => {
  test("a line typed while a tool ran is delivered before the next request, marked as steered", async () => {
    const hooks = new FakeHooks(["steer"]);
    hooks.onTool = async () => {
      hooks.steerQueue.push("also check the tests");
      return { content: "found", is_error: false };
    };
    const p = new ScriptedProvider([
      calls({ id: "a", name: "lookup", arguments: '{"word":"x"}' }),
      text("ok"),
    ]);
    const { agent, events } = agentWith(p, { hooks });
    await agent.send("go");
    const sent = p.requests[1]?.messages ?? [];
    expect(sent.at(-1)).toMatchObject({
      role: "user",
      content: "also check the tests",
      meta: { steered: true },
    });
    expect(sent.at(-2)?.role).toBe("tool");
    expect(
      events.some((e) => e.type === "notice" && e.message === "delivered to the model: also check the tests"),
    ).toBe(true);
  });

  test("a line typed as the reply ended is answered in the same turn, not left queued", async () => {
    const hooks = new FakeHooks(["steer"]);
    const p = new ScriptedProvider([
      async (req, onEvent) => {
        hooks.steerQueue.push("one more thing");
        return text("first")(req, onEvent);
      },
      text("second"),
    ]);
    const { agent } = agentWith(p, { hooks });
    const r = await agent.send("go");
    expect(r).toMatchObject({ text: "second", turns: 2 });
    expect(agent.history.map((m) => m.content)).toEqual(["sys", "go", "first", "one more thing", "second"]);
  });

  test("lines queued before the turn come first, in the order typed; empty ones are dropped", async () => {
    const hooks = new FakeHooks(["steer", "checkpoint"]);
    hooks.steerQueue.push("earlier", "  ");
    const p = new ScriptedProvider([text("ok")]);
    const { agent } = agentWith(p, { hooks });
    await agent.send("now");
    expect(agent.history.map((m) => m.content)).toEqual(["sys", "earlier", "now", "ok"]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(hooks.checkpoints.map((c) => c.reason)).toEqual(["steer", "user", "final"]);
  });
});
