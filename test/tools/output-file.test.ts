// Command output goes through a private, already-unlinked file instead of pipes. What that must keep:
// stdout and stderr in the order they were written, output seen while the command still runs, nothing
// left in the temp directory, and a file that never grows without bound however much a command prints.
import { describe, expect, test } from "bun:test";
import { fstatSync, readdirSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { OutputFile } from "../../src/tools/output-file.ts";
import { runInProcessGroup } from "../../src/tools/run-process.ts";

const opts = { cwd: tmpdir(), env: { PATH: process.env.PATH ?? "/usr/bin:/bin" }, timeoutMs: 10_000 };
const leftovers = () => readdirSync(tmpdir()).filter((n) => n.startsWith(`i-output-${process.pid}-`));

describe("command output through a file", () => {
  test("stdout and stderr interleave in the order written; the exit code and the whole text come back", async () => {
    const r = await runInProcessGroup(["bash", "-c", "echo a; echo b >&2; echo c; printf d >&2; exit 3"], {
      ...opts,
      headBytes: 1000,
      tailBytes: 1000,
    });
    expect(r.output.text()).toBe("a\nb\nc\nd");
    expect(r.code).toBe(3);
    expect(r.outputLeftOpen).toBe(false);
    expect(leftovers()).toEqual([]);
  });

  test("output arrives while the command runs, not only at its end", async () => {
    const seen: { at: number; text: string }[] = [];
    const t0 = Date.now();
    await runInProcessGroup(["bash", "-c", "echo first; sleep 0.5; echo second"], {
      ...opts,
      headBytes: 1000,
      tailBytes: 1000,
      onData: (b) => seen.push({ at: Date.now() - t0, text: b.toString() }),
    });
    expect(seen.map((s) => s.text).join("")).toBe("first\nsecond\n");
    const first = seen.find((s) => s.text.includes("first"));
    expect(first?.at ?? Number.POSITIVE_INFINITY).toBeLessThan(400);
  });

  test("a large output keeps head and tail and counts every byte", async () => {
    const r = await runInProcessGroup(["bash", "-c", "seq 1 200000"], {
      ...opts,
      headBytes: 10,
      tailBytes: 10,
    });
    const text = r.output.text();
    expect(text.startsWith("1\n2\n3\n4\n5\n")).toBe(true);
    expect(text.endsWith("200000\n")).toBe(true);
    expect(r.output.total).toBe(
      Buffer.byteLength(`${Array.from({ length: 200000 }, (_, i) => i + 1).join("\n")}\n`),
    );
  });

  test("past the cut size the file is emptied once read, so it stays bounded", () => {
    const f = new OutputFile(1000);
    const got: Buffer[] = [];
    for (let i = 0; i < 50; i++) {
      writeSync(f.fd, "x".repeat(300));
      f.drain((b) => got.push(b));
      expect(fstatSync(f.fd).size).toBeLessThan(1000);
    }
    expect(Buffer.concat(got).length).toBe(50 * 300);
    f.close();
  });
});
