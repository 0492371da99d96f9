// docs/providers.md's copy-paste setups work as written: every JSON snippet is a valid config.json or
// auth.json by the very schemas a run checks them with, and every shell snippet parses (`bash -n`).
import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { AuthFile, ConfigFile, ProviderName } from "../../src/contract/config.ts";
import { ROOT } from "../helpers/cli.ts";

const text = readFileSync(join(ROOT, "docs/providers.md"), "utf8");
const snippets = [...text.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)].map((m) => ({
  lang: m[1] as string,
  code: m[2] as string,
}));

describe("docs/providers.md snippets", () => {
  test("there is a setup for every provider", () => {
    for (const p of ProviderName.options.filter((n) => n !== "openai"))
      expect(snippets.some((s) => s.lang === "sh" && s.code.includes(`--provider ${p}`))).toBe(true);
    expect(snippets.filter((s) => s.lang === "json").length).toBeGreaterThanOrEqual(6);
  });

  for (const [i, s] of snippets.entries())
    test(`${s.lang} #${i + 1}: ${s.code.split("\n")[0]?.slice(0, 60)}`, () => {
      if (s.lang === "json") {
        const value: unknown = JSON.parse(s.code);
        const asConfig = ConfigFile.safeParse(value);
        const asAuth = AuthFile.safeParse(value);
        // One of the two schemas takes it whole; the config's message is the one worth reading.
        if (!asAuth.success) expect(asConfig.error?.issues ?? []).toEqual([]);
      } else if (s.lang === "sh") {
        const r = spawnSync("bash", ["-n"], { input: s.code, encoding: "utf8" });
        expect(r.stderr).toBe("");
        expect(r.status).toBe(0);
      } else throw new Error(`no check for ${s.lang}`);
    });

  test("the config.json keys it names are the schema's", () => {
    const shape = (k: "bedrock" | "vertex" | "azure" | "openrouter") =>
      Object.keys(
        (ConfigFile.unwrap().shape[k].unwrap() as unknown as { unwrap(): { shape: object } }).unwrap().shape,
      );
    for (const key of [...shape("bedrock"), ...shape("vertex"), ...shape("azure"), ...shape("openrouter")])
      expect(text).toContain(key);
  });
});
