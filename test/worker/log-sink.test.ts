import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { LogSink } from "../../src/worker/log-sink.ts";
import { TempDirs } from "./helpers.ts";

const temp = new TempDirs();
afterAll(() => temp.cleanup());
const bytes = (s: string) => new TextEncoder().encode(s);

describe("LogSink", () => {
  test("creates the log directory and appends", () => {
    const path = join(temp.make(), "logs", "cache.log");
    const sink = new LogSink(path);
    sink.write(bytes("one\n"));
    sink.note("stopped");
    sink.close();
    new LogSink(path).write(bytes("two\n"));
    const text = readFileSync(path, "utf8");
    expect(text).toMatch(/^one\n\[i \d{4}-\d\d-\d\dT[^\]]+\] stopped\ntwo\n$/);
  });

  test("rotates to .1 past the size bound, keeping at most two files", () => {
    const path = join(temp.make(), "w.log");
    const sink = new LogSink(path, 100);
    for (let i = 0; i < 10; i++) sink.write(bytes(`${String(i).repeat(39)}\n`)); // 40 bytes each
    sink.close();
    expect(statSync(path).size).toBeLessThanOrEqual(100);
    expect(statSync(`${path}.1`).size).toBeLessThanOrEqual(100);
    expect(readFileSync(path, "utf8").endsWith(`${"9".repeat(39)}\n`)).toBe(true);
    expect(readFileSync(`${path}.1`, "utf8")).toContain("7".repeat(39));
  });

  test("remembers the worker's last line (not the host's notes) for error messages", () => {
    const sink = new LogSink(join(temp.make(), "x.log"));
    expect(sink.lastLine()).toBe("");
    sink.write(bytes("first\nPanic: out of cheese\n\n"));
    sink.note("evicted");
    expect(sink.lastLine()).toBe("Panic: out of cheese");
    sink.close();
  });

  test("a runtime's closing banner and stack frames are not the worker's last line", () => {
    const sink = new LogSink(join(temp.make(), "x.log"));
    sink.write(
      bytes(
        "1 | throw x\n    ^\nerror: Unknown option --compact\n      at /w.ts:2:18\n\nBun v1.4.5 (Linux x64)\n",
      ),
    );
    expect(sink.lastLine()).toBe("error: Unknown option --compact");
    sink.write(bytes("Node.js v22.1.0\n"));
    expect(sink.lastLine()).toBe("error: Unknown option --compact");
    sink.close();
  });

  test("the last line is sanitised: terminal controls become visible text", () => {
    const sink = new LogSink(join(temp.make(), "x.log"));
    sink.write(bytes("fatal \u001b[2J\u001b]0;pwned\u0007 done\n"));
    expect([...sink.lastLine()].filter((c) => (c.codePointAt(0) as number) < 0x20)).toEqual([]);
    expect(sink.lastLine()).toContain("fatal");
    sink.close();
  });

  test("an unwritable log location does not throw", () => {
    const sink = new LogSink("/proc/definitely/not/writable.log");
    expect(() => sink.write(bytes("x\n"))).not.toThrow();
    expect(sink.lastLine()).toBe("x");
  });
});
