// The image on the clipboard, through whichever tool this system has: wl-paste (Wayland), xclip (X11),
// osascript (macOS; pbpaste itself only gives text) or PowerShell (Windows). Each runs with a deadline and
// is killed when it passes it; nothing is left running. No tool, or no image on the clipboard: one line
// saying so and what to do instead.
import { execFile } from "node:child_process";
import { accessSync, constants, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { MAX_IMAGE_BYTES } from "./attachments.ts";

const DEADLINE_MS = 5000;

function onPath(name: string, env: NodeJS.ProcessEnv): boolean {
  const exts = process.platform === "win32" ? ["", ".exe", ".cmd"] : [""];
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    for (const ext of exts) {
      try {
        const file = join(dir, name + ext);
        accessSync(file, constants.X_OK);
        if (statSync(file).isFile()) return true;
      } catch {
        // not there, or not executable: the next directory
      }
    }
  }
  return false;
}

function run(cmd: string, args: string[]): Promise<Buffer | string> {
  return new Promise((resolve) => {
    execFile(
      cmd,
      args,
      {
        encoding: "buffer",
        timeout: DEADLINE_MS,
        killSignal: "SIGKILL",
        maxBuffer: MAX_IMAGE_BYTES + 1024 * 1024,
      },
      (err, stdout, stderr) => {
        if (err) {
          const why = (err as { killed?: boolean }).killed
            ? `no answer within ${DEADLINE_MS / 1000} s`
            : stderr.toString("utf8").trim().split("\n")[0] || err.message;
          resolve(`${cmd}: ${why}`);
        } else resolve(stdout);
      },
    );
  });
}

const NO_IMAGE = "the clipboard holds no image (copy one first, or paste the image file's path)";

/** The first image type a clipboard offers, from its list of types. */
function imageType(list: string): string | undefined {
  const types = list.split(/\s+/).filter((t) => t.startsWith("image/"));
  return types.find((t) => t === "image/png") ?? types[0];
}

async function viaWlPaste(): Promise<Buffer | string> {
  const types = await run("wl-paste", ["--list-types"]);
  if (typeof types === "string") return types.includes("No selection") ? NO_IMAGE : types;
  const t = imageType(types.toString("utf8"));
  return t ? run("wl-paste", ["--no-newline", "--type", t]) : NO_IMAGE;
}

async function viaXclip(): Promise<Buffer | string> {
  const types = await run("xclip", ["-selection", "clipboard", "-t", "TARGETS", "-o"]);
  if (typeof types === "string") return NO_IMAGE;
  const t = imageType(types.toString("utf8"));
  return t ? run("xclip", ["-selection", "clipboard", "-t", t, "-o"]) : NO_IMAGE;
}

/** osascript and PowerShell write the image to a file of their own temporary directory, then it is read. */
async function viaFile(cmd: string, script: (file: string) => string[]): Promise<Buffer | string> {
  const dir = mkdtempSync(join(tmpdir(), "i-clip-"));
  const file = join(dir, "clip.png");
  try {
    const r = await run(cmd, script(file));
    if (typeof r === "string") return /no image|NOIMAGE|-1700|-1728/i.test(r) ? NO_IMAGE : r;
    try {
      return readFileSync(file);
    } catch {
      return NO_IMAGE;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const mac = (file: string) => [
  "-e",
  "set d to the clipboard as «class PNGf»",
  "-e",
  `set f to open for access (POSIX file "${file}") with write permission`,
  "-e",
  "write d to f",
  "-e",
  "close access f",
];

const windows = (file: string) => [
  "-NoProfile",
  "-NonInteractive",
  "-Command",
  `Add-Type -AssemblyName System.Windows.Forms; $i = [System.Windows.Forms.Clipboard]::GetImage(); if ($i -eq $null) { [Console]::Error.WriteLine('NOIMAGE'); exit 1 }; $i.Save('${file.replaceAll("'", "''")}', [System.Drawing.Imaging.ImageFormat]::Png)`,
];

/** The tool this system would use, or undefined when it has none. */
export function clipboardTool(
  env: NodeJS.ProcessEnv = process.env,
  platform = process.platform,
): string | undefined {
  if (platform === "darwin") return onPath("osascript", env) ? "osascript" : undefined;
  if (platform === "win32") return ["powershell", "pwsh"].find((t) => onPath(t, env));
  if (env.WAYLAND_DISPLAY && onPath("wl-paste", env)) return "wl-paste";
  if (onPath("xclip", env)) return "xclip";
  return onPath("wl-paste", env) ? "wl-paste" : undefined;
}

/** The clipboard's image bytes, or one line saying why there are none. */
export async function readClipboardImage(env: NodeJS.ProcessEnv = process.env): Promise<Buffer | string> {
  const tool = clipboardTool(env);
  switch (tool) {
    case "wl-paste":
      return viaWlPaste();
    case "xclip":
      return viaXclip();
    case "osascript":
      return viaFile("osascript", mac);
    case "powershell":
    case "pwsh":
      return viaFile(tool, windows);
    default:
      return process.platform === "linux" || process.platform === "freebsd"
        ? "no clipboard tool: install wl-clipboard or xclip, or paste the image's path"
        : "no clipboard tool found; paste the image file's path instead";
  }
}
