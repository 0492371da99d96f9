// Shared setup for the compaction tests: temp dirs, synthetic sessions with tool batches, a real
// WorkerHost over generated manifests, the mock model server and a controller wired like the agent's.
import { afterEach, expect } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Agent } from "../../src/agent/loop.ts";
import { CompactionController } from "../../src/compaction/controller.ts";
import { CompactionError, type CompactionStep } from "../../src/compaction/errors.ts";
import type { BudgetResult } from "../../src/contract/compaction.ts";
import type { BindingsFile } from "../../src/contract/config.ts";
import type { AgentEvent } from "../../src/contract/events.ts";
import type { History, Message } from "../../src/contract/history.ts";
import type { Manifest } from "../../src/contract/manifest.ts";
import type { ModuleName } from "../../src/contract/registry.ts";
import { estimateRequest, MESSAGE_OVERHEAD } from "../../src/lib/estimator.ts";
import { createProvider } from "../../src/provider/index.ts";
import type { Provider } from "../../src/provider/types.ts";
import { Session } from "../../src/session/session.ts";
import { Approvals } from "../../src/tools/approvals.ts";
import type { MockServer } from "../fixtures/mock-server/index.ts";
import { ObservedHost } from "../helpers/observed-host.ts";
import { BUN, manifestOf, TempDirs } from "../worker/helpers.ts";

export const FIXTURE_COMPACTOR = join(import.meta.dirname, "fixtures", "fixture-compactor.ts");

export interface SessionOptions {
  turns: number;
  /** characters of each tool result */
  toolChars?: number;
  /** tool call arguments of each read; default a path per turn */
  path?: (turn: number) => string;
}

/** system, then per turn: user → assistant with a read call → tool result → assistant text. */
export function syntheticHistory(opts: SessionOptions): History {
  const h: History = [{ role: "system", content: "You are a test agent." }];
  const chars = opts.toolChars ?? 400;
  for (let t = 0; t < opts.turns; t++) {
    const path = opts.path?.(t) ?? `src/file-${t}.ts`;
    h.push({ role: "user", content: `turn ${t}: please look at ${path}` });
    h.push({
      role: "assistant",
      content: "",
      tool_calls: [{ id: `call_${t}`, name: "read", arguments: JSON.stringify({ path }) }],
    });
    h.push({ role: "tool", tool_call_id: `call_${t}`, content: `${t} `.repeat(chars / 2).slice(0, chars) });
    h.push({ role: "assistant", content: `turn ${t} done: ${path} looks fine` });
  }
  return h;
}

export const fixtureBinding = (...args: string[]) => ({ exec: [BUN, FIXTURE_COMPACTOR, ...args] });

export interface ControllerOptions {
  provider?: Provider;
  contextWindow?: number;
  maxOutput?: number;
}

export interface Rig {
  dirs: TempDirs;
  configDir: string;
  dataDir: string;
  workspace: string;
  manifest: Manifest;
  host: ObservedHost;
  session: Session;
  events: AgentEvent[];
  controller(opts?: {
    provider?: Provider;
    contextWindow?: number;
    maxOutput?: number;
  }): CompactionController;
  /** what a fixture compactor bound with --record <configDir>/record.jsonl received, in order */
  records(): RecordLine[];
  /** history.json and .precompact.json as they are on disk now */
  onDisk(): { history: unknown; precompact: unknown | undefined };
  close(): Promise<void>;
}

export function openAiProvider(url: string): Provider {
  return createProvider({ provider: "openai", apiKey: "sk-test-local", baseUrl: `${url}/v1`, maxRetries: 0 });
}

/** A provider that must never be called (the mock server is the fake when a request is expected). */
export const noProvider: Provider = {
  name: "openai",
  stream() {
    throw new Error("unexpected model request");
  },
};

export function makeRig(opts: {
  modules: ModuleName[];
  /** bindings, or a function of the rig's config dir (to place files such as a --record log there) */
  bindings?: BindingsFile | ((configDir: string) => BindingsFile);
  deadlineMs?: number;
  manifest?: (configDir: string) => Manifest;
}): Rig {
  const dirs = new TempDirs();
  const configDir = dirs.make("i-compaction-config-");
  const dataDir = dirs.make("i-compaction-data-");
  const workspace = dirs.make("i-compaction-ws-");
  const bindings = typeof opts.bindings === "function" ? opts.bindings(configDir) : (opts.bindings ?? {});
  const manifest = opts.manifest?.(configDir) ?? manifestOf(opts.modules, configDir, bindings);
  const host = new ObservedHost(manifest, {
    workspace,
    configDir,
    ...(opts.deadlineMs ? { deadlineMs: opts.deadlineMs } : {}),
  });
  const session = Session.create({ dataDir, workspace });
  const events: AgentEvent[] = [];
  return {
    dirs,
    configDir,
    dataDir,
    workspace,
    manifest,
    host,
    session,
    events,
    controller: (c = {}) =>
      new CompactionController({
        hooks: host,
        provider: c.provider ?? noProvider,
        model: {
          name: "test-model",
          context_window: c.contextWindow ?? 100_000,
          max_output_tokens: c.maxOutput ?? 4000,
        },
        policy: { trigger_ratio: 0.85, rearm_ratio: 0.7 },
        workspace,
        session,
        emit: (ev) => events.push(ev),
        manifest,
      }),
    records() {
      const file = join(configDir, RECORD_FILE);
      if (!existsSync(file)) return [];
      return readFileSync(file, "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as RecordLine);
    },
    onDisk() {
      const read = (f: string) => (existsSync(f) ? JSON.parse(readFileSync(f, "utf8")) : undefined);
      return {
        history: read(join(session.dir, "history.json")),
        precompact: read(join(session.dir, ".precompact.json")),
      };
    },
    async close() {
      await host.close();
      dirs.cleanup();
    },
  };
}

export interface RecordLine {
  pid: number;
  event: string;
  keys: string[];
  state: unknown;
  cut: unknown;
  summary?: unknown;
  /** checkpoint notifications: why and how many messages the checkpoint holds */
  reason?: unknown;
  messages?: unknown;
}

const RECORD_FILE = "record.jsonl";

/** A rig whose compact module is the fixture compactor with `args`, recording every request it gets. */
export function fixtureRig(args: string[], extra: { deadlineMs?: number; modules?: ModuleName[] } = {}): Rig {
  return makeRig({
    modules: extra.modules ?? ["budget", "compact"],
    ...(extra.deadlineMs ? { deadlineMs: extra.deadlineMs } : {}),
    bindings: (configDir) => ({ compact: fixtureBinding("--record", join(configDir, RECORD_FILE), ...args) }),
  });
}

/** Run a manual compaction expected to fail; check the step, the cause and that nothing was committed. */
export async function expectNothingCommitted(
  r: Rig,
  history: History,
  step: CompactionStep,
  cause: RegExp,
  opts: ControllerOptions = {},
): Promise<CompactionError> {
  r.session.checkpoint(history);
  const historyFile = join(r.session.dir, "history.json");
  const before = readFileSync(historyFile, "utf8");
  const err = await r
    .controller(opts)
    .compactNow(history, [])
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  expect(err).toBeInstanceOf(CompactionError);
  expect((err as CompactionError).step).toBe(step);
  expect((err as CompactionError).message).toMatch(cause);
  expect(readFileSync(historyFile, "utf8")).toBe(before);
  expect(r.onDisk().precompact).toBeUndefined();
  expect(readFileSync(join(r.session.dir, "events.jsonl"), "utf8")).not.toContain('"type":"compaction"');
  expect(lastOf(r.events, "compaction")?.phase).toBe("failed");
  return err as CompactionError;
}

export function lastOf<T extends AgentEvent["type"]>(
  events: AgentEvent[],
  type: T,
): Extract<AgentEvent, { type: T }> | undefined {
  return events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type).at(-1);
}

export function textOf(m: Message | undefined): string {
  if (!m) return "";
  return typeof m.content === "string"
    ? m.content
    : m.content.map((p) => (p.type === "text" ? p.text : "")).join("");
}

/**
 * A valid history ending in a user message whose raw estimate (the built-in estimator, no tools) is
 * `ratio` of `hardLimit`: a synthetic session padded by its last user message.
 */
export function historyAt(ratio: number, hardLimit: number, turns = 8): History {
  const h = syntheticHistory({ turns });
  const base = estimateRequest(h, undefined, [], undefined).total + MESSAGE_OVERHEAD;
  const target = Math.round(ratio * hardLimit);
  if (target < base) throw new Error(`historyAt: ${ratio} of ${hardLimit} is below the ${base}-token base`);
  h.push({ role: "user", content: "p".repeat((target - base) * 4) });
  return h;
}

/** `lines` lines of a tool's output, numbered `n` (the files and reads of the room tests). */
export const toolOutput = (n: number, lines = 320) =>
  `line of tool output number ${n}, nothing to see\n`.repeat(lines);

/**
 * A session reading files: the task (its text padded with `remember` reminders), six 320-line reads in
 * the span a compaction takes, then "go on" and two reads in the recent suffix, of 400 and `lastRead`
 * lines, closed by an assistant `closing` line when given.
 */
export function readsHistory(opts: { remember: number; lastRead: number; closing?: string }): History {
  const h: History = [{ role: "system", content: "You are a test agent." }];
  h.push({
    role: "user",
    content: `Read every file in out/. ${"Remember each fact. ".repeat(opts.remember)}`,
  });
  const read = (id: string, path: string, lines: number) => {
    h.push({
      role: "assistant",
      content: "",
      tool_calls: [{ id, name: "read", arguments: JSON.stringify({ path }) }],
    });
    h.push({ role: "tool", tool_call_id: id, content: toolOutput(h.length, lines) });
  };
  for (let n = 0; n < 6; n++) read(`a${n}`, `t${n}.txt`, 320);
  h.push({ role: "assistant", content: "read six" });
  h.push({ role: "user", content: "Go on with the next two." });
  read("b0", "u0.txt", 400);
  read("b1", "u1.txt", opts.lastRead);
  if (opts.closing !== undefined) h.push({ role: "assistant", content: opts.closing });
  return h;
}

/** A budget module's reading of `total` tokens against `hard`, calibrated by `factor` when given (for the
 * room rules' unit tests). */
export const budgetReading = (total: number, hard: number, factor?: number): BudgetResult =>
  ({
    estimator: { id: "i-chars", version: 1 },
    estimates: { total },
    hard_limit: hard,
    recommendation: "none",
    ...(factor === undefined ? {} : { calibration_factor: factor }),
  }) as BudgetResult;

/** The rig and mock server of the current test, closed after each test (assign them in the test). */
export interface TestResources {
  rig?: Rig | undefined;
  mock?: MockServer | undefined;
}

export function closedAfterEach(): TestResources {
  const t: TestResources = {};
  afterEach(async () => {
    await t.rig?.close();
    await t.mock?.close();
    t.rig = undefined;
    t.mock = undefined;
  });
  return t;
}

/** The real agent loop over a rig: no tools, the mock model at `url`, a 12k window (as the controller tests). */
export function agentFor(r: Rig, history: History, url: string, maxTurns = 4): Agent {
  const provider = openAiProvider(url);
  return new Agent(
    {
      provider,
      providerName: "openai",
      model: { name: "test-model", max_output_tokens: 2_000 },
      hooks: r.host,
      session: r.session,
      controller: r.controller({ contextWindow: 12_000, maxOutput: 2_000, provider }),
      tools: [],
      coreToolNames: new Set(),
      toolContext: { workspace: r.workspace, approvals: new Approvals({ policy: "none" }) },
      emit: (ev) => r.events.push(ev),
      maxTurns,
    },
    history,
  );
}
