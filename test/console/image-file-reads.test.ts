// A pasted or typed path is read as an image only when it is a regular file: a FIFO would block the
// console's read for good, and a link to /dev/zero never ends. Both answer at once with one line.
import { expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readImageFile } from "../../src/console/images/attachments.ts";

const dir = () => mkdtempSync(join(tmpdir(), "i-imgfile-"));

test("a FIFO named like an image is refused at once, not waited on", () => {
  const d = dir();
  const fifo = join(d, "shot.png");
  expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
  // Run in a child: on the old code the open never returns, and the child is killed by the timeout.
  const code = `import { readImageFile } from ${JSON.stringify(join(import.meta.dirname, "../../src/console/images/attachments.ts"))};
console.log(JSON.stringify(readImageFile(${JSON.stringify(fifo)}, "shot.png")));`;
  const r = spawnSync(process.execPath, ["-e", code], { encoding: "utf8", timeout: 5000 });
  expect(r.status).toBe(0);
  expect(JSON.parse(r.stdout)).toBe("shot.png is a FIFO (named pipe), not a file");
});

test("a link to /dev/zero is refused; a missing file says so; a regular file is read", () => {
  const d = dir();
  symlinkSync("/dev/zero", join(d, "zero.png"));
  expect(readImageFile(join(d, "zero.png"), "zero.png")).toBe("zero.png is a device, not a file");
  expect(readImageFile(join(d, "none.png"), "none.png")).toBe("none.png: no such file");
  writeFileSync(join(d, "ok.png"), "bytes");
  expect(Buffer.from(readImageFile(join(d, "ok.png")) as Uint8Array).toString()).toBe("bytes");
});
