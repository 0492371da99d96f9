// Images as a person gives them: a pasted image path becomes its label in the input and the next request
// carries the image (the mock records it); a typed @shot.png does the same; a model whose table entry says
// no images refuses in one line and sends nothing; a damaged image is one line; Ctrl-V without a
// clipboard tool says which to install.
import { afterEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makePng } from "../fixtures/images/png.ts";
import type { RecordedRequest } from "../fixtures/mock-server/index.ts";
import { removeDir, tempDir } from "../helpers/cli.ts";
import { liveConsole } from "./console-pty.ts";

const live = liveConsole();
let extraDir: string | undefined;
afterEach(() => {
  if (extraDir) removeDir(extraDir);
  extraDir = undefined;
});

const vision = {
  models: { "mock-model": { context_window: 100_000, max_output_tokens: 4096, images: "keep" } },
};
const PNG = makePng(800, 600);

/** The image parts of the last user message a request carried (OpenAI wire: image_url data URLs). */
function imageUrls(req: RecordedRequest | undefined): string[] {
  const body = req?.body as { messages: Array<{ role: string; content: unknown }> };
  const user = body.messages.filter((m) => m.role === "user").at(-1);
  const parts = Array.isArray(user?.content)
    ? (user.content as Array<{ type: string; image_url?: { url: string } }>)
    : [];
  return parts.filter((p) => p.type === "image_url").map((p) => p.image_url?.url ?? "");
}

test("a pasted image path attaches it and the next request carries the image", async () => {
  const { rig, pty } = await live.open([{ text: "a grey rectangle" }], { config: vision });
  const shot = join(rig.root, "shot 1.png");
  writeFileSync(shot, PNG);
  await pty.paste(`'${shot}'`);
  await pty.waitFor(/\[image 1: png 800×600 \d+ KB\]/);
  await pty.type("what is this?");
  await pty.press("Enter");
  await pty.waitFor("a grey rectangle");
  const urls = imageUrls(rig.mock.requests[0]);
  expect(urls).toEqual([`data:image/png;base64,${PNG.toString("base64")}`]);
}, 60_000);

test("@shot.png attaches the workspace's image; a damaged one is one line and nothing is sent", async () => {
  const { rig, pty } = await live.open([{ text: "seen it" }], { config: vision });
  mkdirSync(join(rig.workspace, "shots"));
  writeFileSync(join(rig.workspace, "shots", "shot.png"), PNG);
  writeFileSync(join(rig.workspace, "bad.png"), "this is not a png");
  await pty.type("look at @bad.png");
  await pty.press("Enter");
  await pty.waitFor("✗ bad.png is not a PNG, JPEG, GIF or WebP image; nothing was sent");
  expect(rig.mock.requests).toHaveLength(0);
  await pty.type("look at @shots/shot.png please");
  await pty.press("Enter");
  await pty.waitFor("seen it");
  await pty.waitFor(/attached \[image \d: png 800×600 \d+ KB\] \(shots\/shot\.png\)/);
  expect(imageUrls(rig.mock.requests[0])).toHaveLength(1);
}, 60_000);

test("a model that takes no images refuses one in one line; nothing is sent", async () => {
  const { rig, pty } = await live.open([{ text: "never" }]);
  const shot = join(rig.root, "shot.png");
  writeFileSync(shot, PNG);
  await pty.paste(shot);
  await pty.waitFor("[image 1: png 800×600");
  await pty.press("Enter");
  await pty.waitFor(
    '✗ mock-model takes no images (its model table entry says nothing about images); nothing was sent: switch with /model, or set "images":"keep" for it in config.json models',
  );
  expect(rig.mock.requests).toHaveLength(0);
}, 60_000);

/** A PATH with every program of this one except the clipboard tools (the console needs the rest). */
function pathWithoutClipboardTools(dir: string): string {
  const bin = join(dir, "bin");
  mkdirSync(bin);
  // Names already linked are skipped by name: a dangling link on PATH would not "exist" a second time.
  const skip = new Set(["wl-paste", "xclip", "xsel", "osascript", "powershell", "pwsh"]);
  for (const d of (process.env.PATH ?? "/usr/bin:/bin").split(":"))
    for (const name of existsSync(d) ? readdirSync(d) : [])
      if (!skip.has(name)) {
        skip.add(name);
        symlinkSync(join(d, name), join(bin, name));
      }
  return bin;
}

test("Ctrl-V with no clipboard tool on PATH says which to install", async () => {
  const dir = tempDir("i-nopaste-");
  extraDir = dir;
  const pty = await live.start([], { env: { PATH: pathWithoutClipboardTools(dir) } });
  await pty.press("C-v");
  await pty.waitFor("no clipboard tool: install wl-clipboard or xclip, or paste the image's path");
}, 60_000);
