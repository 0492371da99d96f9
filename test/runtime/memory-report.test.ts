// The memory diagnostic: with I_DEBUG_MEMORY naming a directory, a real `i worker` writes its report at
// exit, and the host hands the variable to the built-in worker (it is a directory, not a credential).
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { MemoryReport } from "../../src/runtime/memory-report.ts";
import { workerEnv } from "../../src/worker/env.ts";
import { runCli } from "../worker/cli-run.ts";

const dirs: string[] = [];
const temp = () => {
  const d = mkdtempSync(join(tmpdir(), "i-memreport-"));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("I_DEBUG_MEMORY", () => {
  test("a worker process writes what its memory is made of when it exits", async () => {
    const dir = temp();
    const hello = {
      id: 1,
      event: "hello",
      workspace: "/w",
      data: { protocol: 1, module: "budget" },
      module: "budget",
    };
    const r = await runCli(
      ["worker", "budget"],
      { I_CONFIG_DIR: "/nonexistent-config", I_DATA_DIR: "/nonexistent-data", I_DEBUG_MEMORY: dir },
      `${JSON.stringify(hello)}\n`,
    );
    expect(r.code).toBe(0);
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^worker-\d+\.json$/);
    const report = JSON.parse(readFileSync(join(dir, files[0] as string), "utf8")) as MemoryReport;
    expect(report.role).toBe("worker");
    expect(report.memoryUsage.rss).toBeGreaterThan(1024 * 1024);
    expect(report.heap?.capacity).toBeGreaterThan(0);
    expect(Object.keys(report.heap?.topTypes ?? {}).length).toBeGreaterThan(0);
    // A worker that loaded zod and the SDK holds more than a megabyte of live objects.
    expect(report.live?.size).toBeGreaterThan(1024 * 1024);
    expect(report.cpu.user).toBeGreaterThan(0);
  });

  test("without the variable nothing is written and the worker env carries none", async () => {
    const env = workerEnv({ workspace: "/w", configDir: "/c", parent: { PATH: "/bin" } });
    expect(env.I_DEBUG_MEMORY).toBeUndefined();
    const on = workerEnv({
      workspace: "/w",
      configDir: "/c",
      parent: { PATH: "/bin", I_DEBUG_MEMORY: "/tmp/m" },
    });
    expect(on.I_DEBUG_MEMORY).toBe("/tmp/m");
  });
});
