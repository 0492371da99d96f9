// A hand-written manifest is used as-is, but its worker argv must not carry a credential (the rule
// bindings.json follows), and a bad one is one clear line naming the file and field.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { UserError } from "../../src/contract/errors.ts";
import { CORE_TOOL_NAMES } from "../../src/contract/registry.ts";
import { generateManifest } from "../../src/manifest/generate.ts";
import { loadManifestFile } from "../../src/manifest/load.ts";
import { CORE_TOOLS } from "../../src/tools/index.ts";

const dir = mkdtempSync(join(tmpdir(), "i-manifest-load-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const KEY = "sk-abcdefghijklmnopqrstuvwxyz123456";

function manifestFile(name: string, secretArg?: string): string {
  const m = generateManifest({
    profile: "compact",
    configDir: dir,
    plugins: {},
    bindings: {},
    self: ["/opt/i"],
  });
  if (secretArg) {
    const exec = [...(m.modules[1]?.exec ?? []), secretArg];
    for (const mod of m.modules) mod.exec = exec;
    for (const refs of Object.values(m.hooks)) for (const r of refs) r.exec = exec;
  }
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(m));
  return file;
}

function refusal(file: string): UserError {
  try {
    loadManifestFile(file);
  } catch (err) {
    if (err instanceof UserError) return err;
    throw err;
  }
  throw new Error("expected a UserError");
}

describe("loadManifestFile", () => {
  test("a generated manifest loads as it is", () => {
    const file = manifestFile("ok.json");
    expect(loadManifestFile(file).modules.map((m) => m.name)).toEqual(["budget", "compact"]);
  });

  test("credential-looking argv is refused, naming the field, never repeating the key", () => {
    for (const arg of [KEY, "--api-key=whatever"]) {
      const err = refusal(manifestFile("secret.json", arg));
      expect(err.exitCode).toBe(2);
      expect(err.message).toStartWith(`${join(dir, "secret.json")}: field modules[0].exec[3]: refused`);
      expect(err.message).toContain("credential");
      expect(err.message).not.toContain("abcdefghijklmnop");
    }
  });

  test("the registry's list of core tool names is the core's own tools", () => {
    expect([...CORE_TOOL_NAMES].sort()).toEqual(CORE_TOOLS.map((t) => t.name).sort());
  });

  test("a tool named like a core tool, or a tool listed twice, is refused with one line naming the entry", () => {
    // A deep copy: the generated manifest shares its tool declarations with the registry.
    const standard = () =>
      structuredClone(
        generateManifest({
          profile: "standard",
          configDir: dir,
          plugins: {},
          bindings: {},
          self: ["/opt/i"],
        }),
      );
    const write = (name: string, m: ReturnType<typeof standard>) => {
      const file = join(dir, name);
      writeFileSync(file, JSON.stringify(m));
      return file;
    };
    const search = (m: ReturnType<typeof standard>) => {
      const i = m.modules.findIndex((x) => x.name === "search");
      return { i, mod: m.modules[i] as (typeof m.modules)[number] };
    };
    expect(() => loadManifestFile(write("standard.json", standard()))).not.toThrow();

    const core = standard();
    const { i, mod } = search(core);
    const grep = mod.tools.findIndex((t) => t.name === "grep");
    (mod.tools[grep] as { name: string }).name = "bash";
    const shadow = refusal(write("shadow.json", core));
    expect(shadow.exitCode).toBe(2);
    expect(shadow.message).toBe(
      `${join(dir, "shadow.json")}: modules[${i}].tools[${grep}]: "bash" is the name of a core tool; a worker cannot serve a tool named like one (rename or remove it)`,
    );

    const twice = standard();
    const s = search(twice);
    const memory = twice.modules.findIndex((x) => x.name === "memory");
    const copy = s.mod.tools[0] as (typeof s.mod.tools)[number];
    twice.modules[memory]?.tools.push(copy);
    const dup = refusal(write("twice.json", twice));
    expect(dup.message).toMatch(
      new RegExp(
        `: modules\\[\\d+\\]\\.tools\\[\\d+\\]: the tool "${copy.name}" is listed twice \\(first at modules\\[\\d+\\]\\.tools\\[\\d+\\]\\); each tool has one module \\(remove one\\)$`,
      ),
    );
    expect(dup.message.split("\n")).toHaveLength(1);

    const routed = standard();
    const ref = Object.values(routed.tools)[0];
    if (!ref) throw new Error("the standard profile has worker tools");
    routed.tools.edit = ref;
    expect(refusal(write("routed.json", routed)).message).toBe(
      `${join(dir, "routed.json")}: tools.edit: "edit" is the name of a core tool; a worker cannot serve a tool named like one (remove the entry)`,
    );
  });

  test("a missing file says how to make one", () => {
    expect(refusal(join(dir, "absent.json")).message).toContain("i --runtime manifest");
  });
});
