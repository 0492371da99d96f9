import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { UserError } from "../../src/contract/errors.ts";
import { isLocalBaseUrl, NO_KEY, resolveApiKey } from "../../src/provider/credentials.ts";
import { removeDir, tempDir } from "../helpers/cli.ts";

let dir: string;
beforeEach(() => {
  dir = tempDir("i-cred-");
});
afterEach(() => removeDir(dir));

function writeAuth(content: unknown, mode = 0o600): string {
  const file = join(dir, "auth.json");
  writeFileSync(file, JSON.stringify(content));
  chmodSync(file, mode);
  return file;
}

function userError(fn: () => unknown): UserError {
  try {
    fn();
  } catch (err) {
    if (err instanceof UserError) return err;
    throw err;
  }
  throw new Error("expected a UserError");
}

describe("resolveApiKey", () => {
  test("I_API_KEY wins over the provider variable, which wins over auth.json", () => {
    writeAuth({ openai: "from-file", anthropic: "a-file" });
    expect(resolveApiKey("openai", dir, { I_API_KEY: "generic", OPENAI_API_KEY: "specific" })).toBe(
      "generic",
    );
    expect(resolveApiKey("openai", dir, { OPENAI_API_KEY: "specific" })).toBe("specific");
    expect(resolveApiKey("openai", dir, {})).toBe("from-file");
    expect(resolveApiKey("anthropic", dir, { OPENAI_API_KEY: "not-this" })).toBe("a-file");
    expect(resolveApiKey("anthropic", dir, { ANTHROPIC_API_KEY: "ant" })).toBe("ant");
  });

  test("responses uses OPENAI_API_KEY, and auth.json's responses entry or else its openai entry", () => {
    expect(resolveApiKey("responses", dir, { OPENAI_API_KEY: "o" })).toBe("o");
    writeAuth({ openai: "shared" });
    expect(resolveApiKey("responses", dir, {})).toBe("shared");
    writeAuth({ openai: "shared", responses: "own" });
    expect(resolveApiKey("responses", dir, {})).toBe("own");
  });

  test("empty variables count as unset", () => {
    writeAuth({ openai: "from-file" });
    expect(resolveApiKey("openai", dir, { I_API_KEY: "", OPENAI_API_KEY: "  " })).toBe("from-file");
  });

  test("an auth.json readable by others is refused with the chmod fix", () => {
    const file = writeAuth({ openai: "k" }, 0o644);
    const err = userError(() => resolveApiKey("openai", dir, {}));
    expect(err.exitCode).toBe(2);
    expect(err.message).toContain(file);
    expect(err.message).toContain(`chmod 600 ${file}`);
    expect(err.message).not.toContain('"k"');
    writeAuth({ openai: "k" }, 0o640);
    expect(() => resolveApiKey("openai", dir, {})).toThrow(/chmod 600/);
  });

  test("an auth.json with unknown keys or bad JSON is a one-line UserError", () => {
    writeAuth({ opneai: "k" });
    expect(userError(() => resolveApiKey("openai", dir, {})).message).toMatch(
      /auth\.json: unknown key "opneai"/,
    );
    writeFileSync(join(dir, "auth.json"), "{oops");
    expect(userError(() => resolveApiKey("openai", dir, {})).message).toMatch(/malformed JSON/);
  });

  test("no key anywhere: one line naming the variables and auth.json, exit 2", () => {
    const err = userError(() => resolveApiKey("anthropic", dir, {}));
    expect(err.exitCode).toBe(2);
    expect(err.message).toContain("I_API_KEY");
    expect(err.message).toContain("ANTHROPIC_API_KEY");
    expect(err.message).toContain(join(dir, "auth.json"));
    expect(err.message).not.toContain("\n");
  });

  test("a local base URL may run without a key; a remote one may not", () => {
    expect(resolveApiKey("openai", dir, {}, "http://localhost:11434/v1")).toBe(NO_KEY);
    expect(resolveApiKey("openai", dir, {}, "http://127.0.0.1:8080")).toBe(NO_KEY);
    expect(resolveApiKey("openai", dir, {}, "http://[::1]:1234/v1")).toBe(NO_KEY);
    expect(resolveApiKey("openai", dir, { OPENAI_API_KEY: "real" }, "http://localhost:1")).toBe("real");
    expect(() => resolveApiKey("openai", dir, {}, "https://openrouter.ai/api/v1")).toThrow(UserError);
  });

  test("isLocalBaseUrl", () => {
    expect(isLocalBaseUrl("http://127.1.2.3:9")).toBe(true);
    expect(isLocalBaseUrl("http://localhost.example.com")).toBe(false);
    expect(isLocalBaseUrl("http://192.168.1.10:11434")).toBe(false);
    expect(isLocalBaseUrl(undefined)).toBe(false);
    expect(isLocalBaseUrl("garbage")).toBe(false);
  });
});
