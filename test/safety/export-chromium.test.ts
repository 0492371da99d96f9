// The HTML export in a real browser (Debian's chromium, headless): the transcript's text is in the page
// and on the screenshot, and no script ran — not even one planted in a message, which stays text.
import { afterAll, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { inflateSync } from "node:zlib";
import { Session } from "../../src/session/session.ts";
import { makeRig, type Rig } from "../agent/rig.ts";
import { removeDir, runCliAsync, tempDir } from "../helpers/cli.ts";

const CHROMIUM = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => existsSync(p));
const skipReason = CHROMIUM ? undefined : "chromium is not installed (apt-get install chromium)";
if (skipReason) console.warn(`skipping the HTML export browser test: ${skipReason}`);

const dirs: string[] = [];
let rig: Rig | undefined;
afterAll(async () => {
  await rig?.close();
  for (const d of dirs) removeDir(d);
});

/** Run chromium headless with a fresh profile; the whole process group is killed if it hangs. */
function chromium(args: string[]): Promise<{ stdout: string; code: number | null }> {
  const profile = tempDir("i-chromium-");
  dirs.push(profile);
  const flags = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    `--user-data-dir=${profile}`,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(CHROMIUM as string, [...flags, ...args], {
      detached: true,
      stdio: ["ignore", "pipe", "ignore"],
    });
    let stdout = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString("utf8");
    });
    const timer = setTimeout(() => {
      try {
        process.kill(-(child.pid as number), "SIGKILL");
      } catch {}
      reject(new Error("chromium did not finish in 60 s"));
    }, 60_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      try {
        process.kill(-(child.pid as number), "SIGKILL");
      } catch {}
      resolve({ stdout, code });
    });
  });
}

/** The share of non-zero bytes in a PNG's (filtered) image data: a blank page is nearly all zeros. */
function inkShare(png: Buffer): number {
  const idat: Buffer[] = [];
  for (let at = 8; at < png.length; ) {
    const len = png.readUInt32BE(at);
    const type = png.toString("latin1", at + 4, at + 8);
    if (type === "IDAT") idat.push(png.subarray(at + 8, at + 8 + len));
    at += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  let ink = 0;
  for (const b of raw) if (b !== 0) ink++;
  return ink / raw.length;
}

const PLANTED = "<script>document.documentElement.setAttribute('data-pwned','yes')</script>";

test.skipIf(!!skipReason)(
  "the HTML export renders in headless chromium: the transcript is visible, no script ran",
  async () => {
    rig = await makeRig({
      files: { "a.txt": "alpha\n" },
      script: [
        { tool_calls: [{ name: "edit", arguments: { path: "a.txt", old_text: "alpha", new_text: "beta" } }] },
        { text: `Here is the visible reply text. ${PLANTED} <img src=x onerror="document.title='pwned'">` },
      ],
    });
    expect((await rig.run(["-p", `please edit ${PLANTED}`, "--approve", "all"])).code).toBe(0);
    const id = Session.list(rig.dataDir, rig.workspace)[0]?.id as string;
    const file = join(rig.root, "transcript.html");
    const exp = await runCliAsync(["sessions", "--export", id, "--format", "html", "--out", file], rig.env);
    expect(exp.code).toBe(0);
    const html = readFileSync(file, "utf8");
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain("Content-Security-Policy");
    expect(html).toContain("prefers-color-scheme: dark");
    expect(html).not.toMatch(/(?:src|href)=["']?(?:https?:)?\/\//i);

    const dom = await chromium(["--dump-dom", `file://${file}`]);
    expect(dom.stdout).toContain("Here is the visible reply text.");
    expect(dom.stdout).toContain("please edit");
    // The planted script is text on the page, and it did not run.
    expect(dom.stdout).toContain("&lt;script&gt;document.documentElement.setAttribute");
    expect(dom.stdout).not.toMatch(/<html[^>]*data-pwned/);
    expect(dom.stdout).not.toMatch(/<img/i);
    expect(dom.stdout).not.toContain("<title>pwned</title>");

    // The control: under the same flags a page's own script does run, so the check above can fail.
    const control = join(rig.root, "control.html");
    await Bun.write(control, `<!DOCTYPE html><html><body>${PLANTED}</body></html>`);
    expect((await chromium(["--dump-dom", `file://${control}`])).stdout).toMatch(
      /<html[^>]*data-pwned="yes"/,
    );

    const shot = join(rig.root, "shot.png");
    const blankShot = join(rig.root, "blank.png");
    const blankFile = join(rig.root, "blank.html");
    await Bun.write(blankFile, "<!DOCTYPE html><html><body></body></html>");
    await chromium([`--screenshot=${shot}`, "--window-size=900,700", `file://${file}`]);
    await chromium([`--screenshot=${blankShot}`, "--window-size=900,700", `file://${blankFile}`]);
    const ink = inkShare(readFileSync(shot));
    const blank = inkShare(readFileSync(blankShot));
    expect(ink).toBeGreaterThan(0.01);
    expect(ink).toBeGreaterThan(blank * 5);
  },
  180_000,
);
