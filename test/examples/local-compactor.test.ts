// The example replacement compactors, bound the way a user binds them: bindings.json → the generated
// manifest → WorkerHost → the controller. The TypeScript one is compiled into a standalone executable
// first, exactly as its README says; the Python one runs under the system python3.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { extractNotes, NOTES_MAX_BYTES } from "../../examples/local-compactor/notes.ts";
import { loadBindingsFile } from "../../src/config/load.ts";
import type { History, Message } from "../../src/contract/history.ts";
import { generateManifest } from "../../src/manifest/generate.ts";
import {
  lastOf,
  makeRig,
  openAiProvider,
  type Rig,
  syntheticHistory,
  textOf,
} from "../compaction/helpers.ts";
import { type MockServer, startMockServer } from "../fixtures/mock-server/index.ts";
import { runCli } from "../helpers/cli.ts";
import { BUN, MAIN, ROOT, TempDirs } from "../worker/helpers.ts";

const COMPACT_HOOKS = ["compact_plan", "before_compact", "after_compact", "before_compact_commit"];
const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

const dirs = new TempDirs();
let binary = "";
let mock: MockServer;

beforeAll(async () => {
  binary = join(dirs.make("i-example-bin-"), "i-local-compactor");
  const r = spawnSync(
    BUN,
    ["build", "--compile", join(ROOT, "examples", "local-compactor", "main.ts"), "--outfile", binary],
    {
      encoding: "utf8",
    },
  );
  if (r.status !== 0) throw new Error(`bun build --compile failed: ${r.stderr}`);
  mock = await startMockServer({ script: [] });
});
afterAll(async () => {
  await mock.close();
  dirs.cleanup();
});

/** A session with images in tool results and private adapter state, long enough to compact. */
function richHistory(): History {
  const h = syntheticHistory({ turns: 14, toolChars: 1200 });
  h[3] = {
    ...(h[3] as Message),
    content: [
      { type: "text", text: "screenshot" },
      { type: "image", media_type: "image/png", data: PNG },
    ],
  };
  h[4] = { ...(h[4] as Message), adapter: { encrypted_reasoning: "PRIVATE-ADAPTER-STATE" } };
  return h;
}

async function compactThroughBinding(exec: string[]): Promise<{ rig: Rig; out: History; history: History }> {
  const rig = makeRig({
    modules: [],
    manifest: (configDir) => {
      writeFileSync(join(configDir, "bindings.json"), JSON.stringify({ compact: { exec } }));
      return generateManifest({
        profile: "compact",
        configDir,
        plugins: {},
        bindings: loadBindingsFile(configDir),
        self: [BUN, MAIN],
      });
    },
  });
  for (const hook of COMPACT_HOOKS) expect(rig.manifest.hooks[hook]?.map((e) => e.exec)).toEqual([exec]);
  expect(rig.manifest.hooks.budget?.[0]?.builtin).toBe(true);
  const history = richHistory();
  rig.session.checkpoint(history);
  const out = await rig.controller({ provider: openAiProvider(mock.url) }).compactNow(history, []);
  return { rig, out, history };
}

describe("TypeScript local compactor (compiled standalone executable)", () => {
  test("replaces the built-in compactor through bindings.json; no summary request", async () => {
    // Bound the way the seed binds a compactor: the module name as the next argv element.
    const { rig, out, history } = await compactThroughBinding([binary, "--compact", "--keep", "4"]);
    try {
      expect(mock.requests.length).toBe(0);
      expect(lastOf(rig.events, "compaction")).toMatchObject({ phase: "done", route: "local" });
      const summary = textOf(out[1]);
      expect(summary).toContain("Extractive notes (local compactor");
      expect(summary).toContain("turn 12: please look at src/file-12.ts");
      expect(summary).not.toContain("PRIVATE-ADAPTER-STATE");
      expect(JSON.stringify(out)).not.toContain(PNG);
      expect(out.length).toBeLessThan(history.length);
      expect(rig.onDisk().precompact).toEqual(history);
      const log = readFileSync(join(rig.session.dir, "events.jsonl"), "utf8");
      expect(log).toContain(`compact (${binary})`);
    } finally {
      await rig.close();
    }
  });

  test("an unknown option is one line and exit 2", () => {
    const r = spawnSync(binary, ["--compact", "--bogus"], { input: "", encoding: "utf8" });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(
      "i-local-compactor: Unknown option '--bogus'; usage: i-local-compactor [--compact] [--keep N]\n",
    );
  });

  test("notes are capped at 2048 UTF-8 bytes, never splitting a character", () => {
    const messages: Message[] = Array.from({ length: 200 }, (_, i) => ({
      role: "user",
      content: `要求 ${i}: ${"日本語".repeat(60)}`,
    }));
    const notes = extractNotes(messages);
    expect(Buffer.byteLength(notes)).toBeLessThanOrEqual(NOTES_MAX_BYTES);
    expect(Buffer.byteLength(notes)).toBeGreaterThan(NOTES_MAX_BYTES - 4);
    expect(notes).not.toContain("\uFFFD");
  });

  test("`i --runtime manifest` regenerated from bindings.json carries the binding on every compact hook", () => {
    const configDir = dirs.make("i-example-cfg-");
    writeFileSync(join(configDir, "bindings.json"), JSON.stringify({ compact: { exec: [binary] } }));
    const r = runCli(["--runtime", "manifest", "standard"], { I_CONFIG_DIR: configDir });
    expect(r.code).toBe(0);
    const manifest = JSON.parse(r.stdout) as { hooks: Record<string, { exec: string[] }[]> };
    for (const hook of COMPACT_HOOKS)
      expect(manifest.hooks[hook]?.some((e) => e.exec[0] === binary)).toBe(true);
    // Removing the binding and regenerating restores the built-in module.
    writeFileSync(join(configDir, "bindings.json"), "{}");
    const restored = JSON.parse(
      runCli(["--runtime", "manifest", "standard"], { I_CONFIG_DIR: configDir }).stdout,
    ) as typeof manifest;
    expect(restored.hooks.compact_plan?.[0]?.exec).not.toContain(binary);
  });
});

describe("Python standard-library compactor", () => {
  const python = spawnSync("python3", ["-c", "import sys; print(sys.executable)"], {
    encoding: "utf8",
  }).stdout.trim();
  test.skipIf(!python)(
    "replaces the built-in compactor through bindings.json; no summary request",
    async () => {
      const script = join(ROOT, "examples", "python-compactor", "compactor.py");
      const { rig, out } = await compactThroughBinding([python, script, "--keep", "4"]);
      try {
        expect(mock.requests.length).toBe(0);
        expect(textOf(out[1])).toContain("Notes from the python compactor");
        expect(lastOf(rig.events, "compaction")).toMatchObject({ phase: "done", route: "local" });
      } finally {
        await rig.close();
      }
    },
  );
});
