// The setup's optional test request: one tiny model reply, no retries, with a deadline, so a wrong key, URL,
// model name, region or deployment is found before anything is saved. It goes through the same provider
// code a run uses, with the settings about to be saved. The reason comes back as one line, never the key.
import type { CloudSettings } from "../../contract/cloud-config.ts";
import { errorMessage } from "../../contract/errors.ts";
import { CLOUD_KEY, ENTRA_PREFIX, isCloudProvider } from "../../provider/cloud-credentials.ts";
import { PROVIDER_ENV } from "../../provider/credentials.ts";
import { createProvider, NO_KEY } from "../../provider/index.ts";
import { sanitizeLine } from "../../terminal/sanitize.ts";
import type { SetupAnswers } from "./setup-files.ts";

const DEADLINE_MS = 30_000;

/** The key a run would take from the environment when the setup stores none. */
export function envKey(a: SetupAnswers, env: NodeJS.ProcessEnv): string | undefined {
  if (isCloudProvider(a.provider)) return CLOUD_KEY;
  for (const name of ["I_API_KEY", ...PROVIDER_ENV[a.provider]]) {
    const key = env[name]?.trim();
    if (key) return name === "AZURE_OPENAI_AD_TOKEN" ? `${ENTRA_PREFIX}${key}` : key;
  }
  return undefined;
}

/** Undefined when the model answered; otherwise why it did not, in one line. */
export async function testRequest(
  a: SetupAnswers,
  env: NodeJS.ProcessEnv,
  cloud: CloudSettings = {},
): Promise<string | undefined> {
  const key = a.key ?? envKey(a, env) ?? NO_KEY;
  const signal = AbortSignal.timeout(DEADLINE_MS);
  try {
    const provider = createProvider({
      provider: a.provider,
      apiKey: key,
      maxRetries: 0,
      ...(a.baseUrl ? { baseUrl: a.baseUrl } : {}),
      cloud,
      env,
    });
    await provider.stream({
      model: a.model,
      messages: [
        { role: "system", content: "You are being tested by a setup program." },
        { role: "user", content: "Reply with the single word: ok" },
      ],
      tools: [],
      max_output_tokens: 16,
      signal,
    });
    return undefined;
  } catch (err) {
    if (signal.aborted) return `no answer within ${DEADLINE_MS / 1000} s`;
    // A provider may quote what it was sent; the key is never shown back.
    const why =
      key === NO_KEY || key === CLOUD_KEY ? errorMessage(err) : errorMessage(err).split(key).join("…");
    return sanitizeLine(why.replace(/\s+/g, " "));
  }
}
