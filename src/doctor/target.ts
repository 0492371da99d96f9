// `i doctor`, target part: the provider, model, budget reserve and API key a run with the same flags would
// use — each checked by the run's own function — and, with --online, one small request to the endpoint.
import { type ResolvedTarget, type RunFlags, resolveTarget } from "../agent/options.ts";
import { checkReserve } from "../config/reserve.ts";
import type { CloudSettings } from "../contract/cloud-config.ts";
import type { BudgetFile, ConfigFile } from "../contract/config.ts";
import { errorMessage } from "../contract/errors.ts";
import { ANTHROPIC_DEFAULT_BASE } from "../provider/anthropic.ts";
import { locateApiKey } from "../provider/credentials.ts";
import { GEMINI_DEFAULT_BASE } from "../provider/gemini/index.ts";
import { createProvider } from "../provider/index.ts";
import { type ResolvedModel, resolveModel } from "../provider/models.ts";
import { OPENAI_DEFAULT_BASE } from "../provider/openai.ts";
import { OPENROUTER_DEFAULT_BASE } from "../provider/openrouter/index.ts";
import { credentialEnv } from "../runtime/credential-handoff.ts";
import type { HookRunner } from "../worker/types.ts";
import { attempt, type Row } from "./report.ts";

export interface TargetReport {
  rows: Row[];
  target?: ResolvedTarget;
  model?: ResolvedModel;
  apiKey?: string;
  /** config.json's cloud sections, for the online check */
  cloud?: CloudSettings;
}

const DEFAULT_BASE: Record<string, string> = {
  openai: OPENAI_DEFAULT_BASE,
  responses: OPENAI_DEFAULT_BASE,
  anthropic: ANTHROPIC_DEFAULT_BASE,
  gemini: GEMINI_DEFAULT_BASE,
  openrouter: OPENROUTER_DEFAULT_BASE,
};

export function checkTarget(
  flags: RunFlags,
  dir: string,
  config: ConfigFile,
  budget: BudgetFile | undefined,
): TargetReport {
  const t = attempt(
    "provider",
    () => resolveTarget(flags, config),
    (v) => `${v.provider} at ${v.baseUrl ?? DEFAULT_BASE[v.provider] ?? "its standard endpoint"}`,
  );
  if (!t.value) {
    // No provider/model: the model, reserve and key checks have nothing to check.
    return { rows: [{ ...t, name: "target" }] };
  }
  const target = t.value;
  const m = attempt(
    "model",
    () => resolveModel(target.model, config, dir),
    (v) =>
      `${v.name}: context window ${v.context_window} tokens${v.max_output_tokens ? `, max output ${v.max_output_tokens}` : ""}`,
  );
  const rows: Row[] = [t, m];
  if (m.value && budget) {
    const model = m.value;
    rows.push(
      attempt(
        "reserve",
        () => checkReserve(budget, model, dir),
        () =>
          budget.reserve_tokens === undefined
            ? "default"
            : `${budget.reserve_tokens} of ${model.context_window} tokens`,
      ),
    );
  }
  const k = attempt(
    "API key",
    () => locateApiKey(target.provider, dir, credentialEnv(), target.baseUrl, config),
    (v) => (v.source.startsWith("none") ? v.source : `from ${v.source}`),
  );
  rows.push(k);
  return {
    rows,
    target,
    ...(m.value ? { model: m.value } : {}),
    ...(k.value ? { apiKey: k.value.key } : {}),
    cloud: config,
  };
}

/**
 * With --online: one small streamed request, as a run would send it (the Responses wire goes through the
 * workers' hooks). No retries, a 30 s limit: doctor reports, it does not wait out an outage.
 */
export async function checkEndpoint(report: TargetReport, hooks: HookRunner): Promise<Row> {
  const { target, model, apiKey } = report;
  if (!target || !model || apiKey === undefined)
    return { name: "endpoint", status: "-", detail: "not contacted: fix the target first" };
  const t0 = performance.now();
  try {
    const provider = createProvider({
      provider: target.provider,
      apiKey,
      ...(target.baseUrl ? { baseUrl: target.baseUrl } : {}),
      hooks,
      maxRetries: 0,
      ...(report.cloud ? { cloud: report.cloud } : {}),
    });
    const res = await provider.stream({
      model: model.name,
      messages: [
        { role: "system", content: "You are a connectivity check. Answer with one word." },
        { role: "user", content: "Say OK." },
      ],
      tools: [],
      max_output_tokens: 16,
      signal: AbortSignal.timeout(30_000),
    });
    const ms = performance.now() - t0;
    return {
      name: "endpoint",
      status: "ok",
      detail: `${model.name} answered in ${ms.toFixed(0)} ms (stop: ${res.stop})`,
    };
  } catch (err) {
    return { name: "endpoint", status: "FAILED", detail: "", problem: `endpoint: ${errorMessage(err)}` };
  }
}
