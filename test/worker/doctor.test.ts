// `i doctor`: config validation, each worker's handshake and round trip, the table and the exit codes.
import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { MODULE_NAMES, type ModuleName } from "../../src/contract/registry.ts";
import { runCli } from "./cli-run.ts";
import { BUN, ECHO, MISBEHAVE, TempDirs } from "./helpers.ts";

const temp = new TempDirs();
afterAll(() => temp.cleanup());

/** A config dir whose profile keeps only `modules`, with these bindings. */
function configWith(modules: ModuleName[], bindings: Record<string, unknown> = {}) {
  const dir = temp.make();
  const disabled = MODULE_NAMES.filter(
    (m) => !modules.includes(m) && m !== "web" && m !== "responses" && m !== "steering",
  );
  writeFileSync(join(dir, "plugins.json"), JSON.stringify({ profile: "standard", disabled }));
  writeFileSync(join(dir, "bindings.json"), JSON.stringify(bindings));
  return dir;
}
// A model and a key, so the target checks pass and the worker checks decide the exit code.
const doctor = (dir: string) =>
  runCli(["doctor", "-m", "gpt-4o"], {
    I_CONFIG_DIR: dir,
    I_DATA_DIR: join(dir, "data"),
    OPENAI_API_KEY: "sk-test-key-not-real-0000000000",
  });
const misbehaving = (module: string, mode: string) => ({
  exec: [BUN, MISBEHAVE, "--module", module, "--mode", mode],
});

describe("i doctor", () => {
  test("all workers healthy: table and exit 0", async () => {
    const dir = configWith(["cache", "search"], { search: { exec: [BUN, ECHO, "--module", "search"] } });
    const r = await doctor(dir);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`config_dir ${dir}\n`);
    expect(r.stdout).toMatch(/^ {2}plugins\.json +ok +profile standard, disabled: /m);
    // EXEC last; the process the built-ins share is written out once, under the table.
    expect(r.stdout).toMatch(/^MODULE\s+KIND\s+STATUS\s+START\s+ROUND TRIP\s+EXEC$/m);
    expect(r.stdout).toMatch(/^cache\s+built-in\s+ok\s+[\d.]+ ms\s+[\d.]+ ms\s+\(shared process, below\)$/m);
    expect(r.stdout).toMatch(/^shared built-in process: i worker cache,steering$/m);
    // The built-ins' rows fit an 80-column terminal (the shared command line no longer repeats on each).
    for (const l of r.stdout.split("\n").filter((x) => /^\S+ +built-in /.test(x)))
      expect(l.length).toBeLessThanOrEqual(80);
    expect(r.stdout).toMatch(
      new RegExp(
        `^search\\s+bound\\s+ok\\s+[\\d.]+ ms\\s+[\\d.]+ ms\\s+${BUN} ${ECHO} --module search$`,
        "m",
      ),
    );
    expect(r.stdout).toContain("all 3 modules ok");
    expect(r.stdout.trimEnd().endsWith("all checks ok")).toBe(true);
  });

  test("broken workers: each FAILED with its cause, exit 1", async () => {
    const dir = configWith(["budget", "cache", "search"], {
      budget: { exec: ["/nonexistent/budget-worker"] },
      cache: misbehaving("cache", "meddle"),
      search: misbehaving("search", "wrong-schema"),
    });
    const r = await doctor(dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^budget\s+bound\s+FAILED\s+-\s+-\s+\/nonexistent\/budget-worker$/m);
    expect(r.stdout).toMatch(/^budget: cannot start \/nonexistent\/budget-worker: .*ENOENT/m);
    expect(r.stdout).toMatch(/^cache\s+bound\s.*FAILED/m);
    expect(r.stdout).toContain(
      'cache: the worker changed the data of "doctor_ping", an event it does not handle; such events must come back unchanged',
    );
    expect(r.stdout).toContain(
      'search: declarations differ from module "search": tool "grep": input_schema differs',
    );
    expect(r.stdout).toContain(`worker logs: ${join(dir, "logs")}`);
    // steering, which the console adds, is still fine
    expect(r.stdout).toMatch(/^steering\s+built-in\s+ok\s.*\si worker steering$/m);
    expect(r.stdout).toContain("3 of 4 modules FAILED");
    expect(r.stdout.trimEnd().endsWith("3 checks FAILED")).toBe(true);
  });

  test("config errors: the run's own one-line error on its file's row, exit 2", async () => {
    const dir = temp.make();
    writeFileSync(join(dir, "plugins.json"), "{ not json");
    const r = await doctor(dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("");
    expect(r.stdout).toMatch(/^ {2}plugins\.json +FAILED$/m);
    expect(r.stdout).toMatch(/^ {2}\S*plugins\.json: malformed JSON/m);
    expect(r.stdout).toContain("workers: not checked: the manifest cannot be built");
    expect(r.stdout.trimEnd().endsWith("1 problem a run would stop at (exit 2): fix the lines above")).toBe(
      true,
    );

    const rel = temp.make();
    writeFileSync(join(rel, "bindings.json"), JSON.stringify({ cache: { exec: ["relative/prog"] } }));
    const r2 = await doctor(rel);
    expect(r2.code).toBe(2);
    expect(r2.stdout).toContain("bindings.json: field cache.exec[0]");

    const desk = temp.make();
    writeFileSync(join(desk, "desktop.json"), JSON.stringify({ protocol: 1 }));
    const r3 = await doctor(desk);
    expect(r3.code).toBe(2);
    expect(r3.stdout).toMatch(/^ {2}\S*desktop\.json: /m);
  });
});
