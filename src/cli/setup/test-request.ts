// The setup's optional test request: one tiny model reply, no retries, with a deadline, so a wrong key, URL
// or model name is found before anything is saved. The reason comes back as one line, never the key.
import { errorMessage } from "../../contract/errors.ts";
import { createProvider, NO_KEY } from "../../provider/index.ts";
import { sanitizeLine } from "../../terminal/sanitize.ts";
import type { SetupAnswers } from "./setup-files.ts";

const DEADLINE_MS = 30_000;

/** Undefined when the model answered; otherwise why it did not, in one line. */
export async function testRequest(a: SetupAnswers, envKey: string | undefined): Promise<string | undefined> {
  const key = a.key ?? envKey ?? NO_KEY;
  const signal = AbortSignal.timeout(DEADLINE_MS);
  try {
    const provider = createProvider({
      provider: a.provider,
      apiKey: key,
      maxRetries: 0,
      ...(a.baseUrl ? { baseUrl: a.baseUrl } : {}),
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
    const why = key === NO_KEY ? errorMessage(err) : errorMessage(err).split(key).join("…");
    return sanitizeLine(why.replace(/\s+/g, " "));
  }
}
