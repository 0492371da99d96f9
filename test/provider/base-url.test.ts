// The one base-URL check: both places that take a base URL (option resolution, createProvider) refuse the
// same inputs with one line that says where to fix it.
import { describe, expect, test } from "bun:test";
import { resolveTarget } from "../../src/agent/options.ts";
import { UserError } from "../../src/contract/errors.ts";
import { baseUrlProblem } from "../../src/provider/base-url.ts";
import { createProvider } from "../../src/provider/index.ts";

describe("baseUrlProblem", () => {
  test("http and https endpoints pass", () => {
    expect(baseUrlProblem("http://localhost:11434/v1")).toBeUndefined();
    expect(baseUrlProblem("https://api.example.com")).toBeUndefined();
  });

  test("a string that is no URL, and a non-http scheme, are named", () => {
    expect(baseUrlProblem("localhost:11434")).toContain("must start with http:// or https://");
    expect(baseUrlProblem("not a url")).toBe('base URL "not a url" is not a valid URL');
    expect(baseUrlProblem("ftp://host/v1")).toBe(
      'base URL "ftp://host/v1" must start with http:// or https://',
    );
  });

  test("a user name or password in the URL is refused, and the message does not repeat the password", () => {
    for (const url of ["http://u:secret@localhost:11434/v1", "https://token@api.example.com"]) {
      const problem = baseUrlProblem(url);
      expect(problem).toContain("contains a user name or password");
      expect(problem).not.toContain("secret");
      expect(problem).not.toContain("token@");
    }
  });

  test("a recorded base URL is reused on resume unless --base-url or another --provider is given", () => {
    const recorded = { provider: "openai", model: "m", base_url: "http://localhost:1/v1" };
    const env = { I_BASE_URL: "http://env.example/v1" };
    expect(resolveTarget({}, {}, env, recorded).baseUrl).toBe("http://localhost:1/v1");
    expect(resolveTarget({ baseUrl: "http://x.example" }, {}, env, recorded).baseUrl).toBe(
      "http://x.example",
    );
    expect(resolveTarget({ provider: "anthropic", model: "c" }, {}, env, recorded).baseUrl).toBe(
      "http://env.example/v1",
    );
    expect(() => resolveTarget({}, {}, {}, { ...recorded, base_url: "ftp://h" })).toThrow(
      "the resumed session recorded it; pass --base-url to use another",
    );
  });

  test("option resolution and createProvider refuse the same URL, each naming its own fix", () => {
    const flags = { model: "m", baseUrl: "ftp://host/v1" };
    expect(() => resolveTarget(flags, {}, {})).toThrow(UserError);
    expect(() => resolveTarget(flags, {}, {})).toThrow("fix --base-url, I_BASE_URL or config.json base_url");
    expect(() => createProvider({ provider: "openai", apiKey: "k", baseUrl: "ftp://host/v1" })).toThrow(
      'base URL "ftp://host/v1" must start with http:// or https://; give one like http://localhost:11434/v1',
    );
  });
});
