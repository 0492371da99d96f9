// zod schemas for every file in config_dir. Types are inferred from them and the
// JSON Schemas shipped in schemas/ are generated from them (scripts/gen-schemas.ts).
import { z } from "zod";
import { AzureConfig, BedrockConfig, OpenRouterConfig, VertexConfig } from "./cloud-config.ts";
import { GuardSettings, SandboxSettings } from "./guard.ts";
import { ModuleName } from "./registry.ts";
import { MAX_PARALLEL_TASKS } from "./tasks.ts";

/** `$schema` (editor validation) and `$comment` (notes) are allowed in every file. */
const Annotations = { $schema: z.string().optional(), $comment: z.string().optional() };

export const ImagesPolicy = z.enum(["keep", "omit", "describe"]);
export const ProviderName = z.enum([
  "openai",
  "anthropic",
  "responses",
  "gemini",
  "vertex",
  "bedrock",
  "azure",
  "openrouter",
]);

export const ModelInfo = z.lazy(() =>
  z.strictObject({
    context_window: z.number().int().positive(),
    max_output_tokens: z.number().int().positive().optional(),
    images: ImagesPolicy.optional(),
    image_tokens: z.number().int().nonnegative().optional(),
    /** how the model changes files: edit and write, or apply_patch (the patch format it was trained on) */
    edit_tool: z.enum(["edit", "apply_patch"]).optional(),
    /** list price in USD per million tokens; the console shows the session's cost when it is known */
    price: z
      .strictObject({
        input: z.number().nonnegative(),
        output: z.number().nonnegative(),
        /** input read from the provider's prompt cache (default: input) */
        cache_read: z.number().nonnegative().optional(),
        /** input written to the prompt cache, where that is billed apart (Anthropic, Claude on Bedrock and Vertex; default: input) */
        cache_write: z.number().nonnegative().optional(),
      })
      .optional(),
    /**
     * Anthropic extended thinking: the tokens the model may reason for before it answers (at least 1024 and
     * less than max_output_tokens); absent: no thinking. Other wire formats ignore it.
     */
    thinking_budget: z.number().int().min(1024).optional(),
  }),
);

export const ConfigFile = z.lazy(() =>
  z.strictObject({
    ...Annotations,
    provider: ProviderName.optional(),
    base_url: z.string().url("not a valid URL; give one like http://localhost:11434/v1").optional(),
    model: z.string().min(1).optional(),
    models: z.record(z.string().min(1), ModelInfo).optional(),
    /**
     * give up on a model stream that sends nothing for this many ms, then retry once (default 300000, as
     * codex); between 1 s and 1 h
     */
    stream_idle_timeout_ms: z.number().int().min(1000).max(3_600_000).optional(),
    /**
     * the console's colours: dark (default), light, auto (asks the terminal for its background, else
     * COLORFGBG, else dark) or high-contrast (bold, no dim, diffs in blue and orange); NO_COLOR and
     * TERM=dumb still turn colour off
     */
    theme: z.enum(["dark", "light", "auto", "high-contrast"]).optional(),
    /** the console shows the model's reasoning (dimmed, one live line; Ctrl-O opens the last); default true */
    show_reasoning: z.boolean().optional(),
    /** the console's terminal title: "i — TITLE (working)"; default true */
    terminal_title: z.boolean().optional(),
    /** how the console says a long turn ended or an approval waits, while you are in another window */
    notifications: z
      .strictObject({
        /** bell (default), osc9 (iTerm2, WezTerm, Windows Terminal), osc777 (foot, rxvt, VTE), or off */
        method: z.enum(["bell", "osc9", "osc777", "off"]).optional(),
        /** a turn that took at least this long, or an approval waiting this long, is announced (default 20) */
        after_seconds: z.number().min(0).max(86_400).optional(),
        /** announce inside tmux too (default false: tmux shows the bell itself, and passes OSC 9/777 on only when set up to) */
        in_tmux: z.boolean().optional(),
        /** after a reply, how long the prompt waits for your input before your Notification hooks are told (default 60) */
        idle_seconds: z.number().min(0.1).max(86_400).optional(),
      })
      .optional(),
    /** sub-agents (the task tool): how many run at once when the model asks for several (default 4) */
    tasks: z
      .strictObject({ max_parallel: z.number().int().min(1).max(MAX_PARALLEL_TASKS).optional() })
      .optional(),
    /** the bash guard: what runs without its question (see docs/guard.md) */
    guard: GuardSettings.optional(),
    /** the bash sandbox: { "mode": "off" } turns it off, { "network": false } takes the network away */
    sandbox: SandboxSettings.optional(),
    /** Amazon Bedrock: region and profile (docs/providers.md) */
    bedrock: BedrockConfig.optional(),
    /** Vertex AI: project and location */
    vertex: VertexConfig.optional(),
    /** Azure OpenAI: endpoint, api_version, deployment, wire */
    azure: AzureConfig.optional(),
    /** OpenRouter: attribution, reasoning and provider routing */
    openrouter: OpenRouterConfig.optional(),
  }),
);

export const PluginsFile = z.lazy(() =>
  z.strictObject({
    ...Annotations,
    profile: z.string().min(1).optional(),
    disabled: z.array(ModuleName).optional(),
  }),
);

export const Binding = z.lazy(() =>
  z.strictObject({
    /** argv array; exec[0] is an absolute path to the executable */
    exec: z.array(z.string().min(1)).min(1),
    /** absolute working directory; default config_dir */
    cwd: z.string().min(1).optional(),
  }),
);
export const BindingsFile = z.lazy(() =>
  z.strictObject({
    ...Annotations,
    ...(Object.fromEntries(ModuleName.options.map((m) => [m, Binding.optional()])) as Record<
      ModuleName,
      z.ZodOptional<typeof Binding>
    >),
  }),
);

export const CompactFile = z.lazy(() =>
  z.strictObject({
    ...Annotations,
    enabled: z.boolean().optional(),
    keep_recent: z.number().int().min(1).max(10000).optional(),
    images: ImagesPolicy.optional(),
    /** path relative to compact.json (absolute allowed); at most 32000 characters; supports {{workspace}} */
    prompt: z.string().min(1).optional(),
    /**
     * The model-free first stage (built-in policy only): when shortening old tool outputs to what a
     * summariser would be shown brings the context below the re-arm ratio, do that instead of a summary.
     */
    prune: z
      .strictObject({
        /** default true */
        enabled: z.boolean().optional(),
        /** most recent messages whose tool outputs stay whole; default: keep_recent */
        keep_recent: z.number().int().min(1).max(10000).optional(),
      })
      .optional(),
  }),
);

export const BudgetFile = z.lazy(() =>
  z.strictObject({
    ...Annotations,
    /** tokens kept free for the model's answer; default: the model's max_output_tokens, capped at 32000 */
    reserve_tokens: z.number().int().nonnegative().optional(),
    /** recommend compaction at this fraction of the hard limit (high-watermark) */
    trigger_ratio: z.number().gt(0).lt(1).optional(),
    /** after a recommendation, re-arm only once usage falls below this fraction */
    rearm_ratio: z.number().gt(0).lt(1).optional(),
  }),
);

export const AuthFile = z.lazy(() =>
  z.strictObject({
    ...Annotations,
    openai: z.string().min(1).optional(),
    anthropic: z.string().min(1).optional(),
    responses: z.string().min(1).optional(),
    gemini: z.string().min(1).optional(),
    azure: z.string().min(1).optional(),
    openrouter: z.string().min(1).optional(),
  }),
);

/** Hard ceilings of web.json: the host's 15 s request deadline must never be reached by a fetch. */
export const MAX_WEB_TIMEOUT_MS = 14_000;
export const MAX_WEB_FETCH_BYTES = 10 * 1024 * 1024;

const httpUrl = z
  .string()
  .url()
  .refine((u) => /^https?:$/.test(new URL(u).protocol), "must be an http:// or https:// URL");

/** config_dir/web.json: settings of the built-in web module. */
export const WebFile = z.lazy(() =>
  z.strictObject({
    ...Annotations,
    /** fetch private, loopback and link-local addresses too (off by default: they reach the local network) */
    allow_private: z.boolean().optional(),
    /** a SearXNG-style JSON search endpoint; enables the web_search tool */
    search_endpoint: httpUrl.optional(),
    /** per-request time limit in milliseconds (default 10000) */
    timeout_ms: z.number().int().min(100).max(MAX_WEB_TIMEOUT_MS).optional(),
    /** default and upper bound for bytes read from one response (default 1 MiB) */
    max_bytes: z.number().int().positive().max(MAX_WEB_FETCH_BYTES).optional(),
  }),
);
export type WebFile = z.infer<typeof WebFile>;

/** budget.json defaults: recommend compaction at 85% of the hard limit, re-arm below 70%. */
export const DEFAULT_TRIGGER_RATIO = 0.85;
export const DEFAULT_REARM_RATIO = 0.7;

/** Longest compaction prompt: a compact.json prompt file and any prompt a hook supplies. */
export const MAX_PROMPT_CHARS = 32000;

export type ImagesPolicy = z.infer<typeof ImagesPolicy>;
export type ProviderName = z.infer<typeof ProviderName>;
export type ModelInfo = z.infer<typeof ModelInfo>;
export type ConfigFile = z.infer<typeof ConfigFile>;
export type PluginsFile = z.infer<typeof PluginsFile>;
export type Binding = z.infer<typeof Binding>;
export type BindingsFile = z.infer<typeof BindingsFile>;
export type CompactFile = z.infer<typeof CompactFile>;
export type BudgetFile = z.infer<typeof BudgetFile>;
export type AuthFile = z.infer<typeof AuthFile>;
