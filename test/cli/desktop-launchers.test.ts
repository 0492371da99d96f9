// The desktop launchers (scripts/desktop) and start.cmd. The .desktop entry is validated and launched the
// way a file manager launches it (GLib), the macOS .command runs as the shell script it is, and the batch
// files — no Windows here — go through a structural check of what cmd.exe gets wrong.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeRig } from "../agent/rig.ts";
import { batchProblems } from "../helpers/batch-lint.ts";
import { ROOT, removeDir, startProgram, tempDir } from "../helpers/cli.ts";

const DESKTOP = join(ROOT, "scripts", "desktop");

let dir: string;
beforeEach(() => {
  dir = tempDir("i-desktop-");
});
afterEach(() => removeDir(dir));

/** A stand-in for the packaged `i`: records which copy ran, from where, with what arguments. */
function recorder(at: string, tag: string): string {
  mkdirSync(at, { recursive: true });
  const path = join(at, "i");
  writeFileSync(path, `#!/bin/sh\necho "${tag}|$PWD|$*" >> "${join(dir, "ran")}"\n`);
  chmodSync(path, 0o755);
  return path;
}

const ran = () => readFileSync(join(dir, "ran"), "utf8").trim().split("\n");

function has(cmd: string, args: string[]): boolean {
  return spawnSync(cmd, args, { stdio: "ignore" }).status === 0;
}

const glib = has("/usr/bin/python3", ["-c", "from gi.repository import Gio"]);

describe("Linux .desktop entry", () => {
  test.skipIf(!has("desktop-file-validate", ["--help"]))(
    "passes desktop-file-validate",
    () => {
      const r = spawnSync("desktop-file-validate", [join(DESKTOP, "i-console.desktop")], {
        encoding: "utf8",
      });
      expect(r.stdout + r.stderr).toBe("");
      expect(r.status).toBe(0);
    },
    30_000,
  );

  test.skipIf(!glib)(
    "launched by GLib: runs the i next to it, from HOME, as `i start --desktop`",
    () => {
      const pkg = join(dir, "my archive");
      recorder(pkg, "packaged");
      recorder(join(dir, "bin"), "on-path");
      // Terminal=false only so the test needs no terminal emulator; the Exec line is the shipped one.
      const text = readFileSync(join(DESKTOP, "i-console.desktop"), "utf8");
      expect(text).toContain("Terminal=true");
      writeFileSync(join(pkg, "i-console.desktop"), text.replace("Terminal=true", "Terminal=false"));
      const launch = (how: "file" | "keyfile") => {
        const py =
          how === "file"
            ? "Gio.DesktopAppInfo.new_from_filename(sys.argv[1])"
            : "Gio.DesktopAppInfo.new_from_keyfile(keyfile())";
        const script = [
          "import sys, time",
          "from gi.repository import Gio, GLib",
          "def keyfile():",
          "  k = GLib.KeyFile.new(); k.load_from_file(sys.argv[1], GLib.KeyFileFlags.NONE); return k",
          `info = ${py}`,
          "assert info.launch([], None)",
          "time.sleep(0.5)",
        ].join("\n");
        const r = spawnSync("/usr/bin/python3", ["-c", script, join(pkg, "i-console.desktop")], {
          env: { ...process.env, HOME: dir, PATH: `${join(dir, "bin")}:${process.env.PATH}` },
          encoding: "utf8",
        });
        expect(r.stderr).toBe("");
        expect(r.status).toBe(0);
      };
      launch("file");
      // Without a known file location (%k empty) it falls back to the i on PATH (npm install -g).
      launch("keyfile");
      expect(ran()).toEqual([`packaged|${dir}|start --desktop`, `on-path|${dir}|start --desktop`]);
    },
    30_000,
  );
});

describe("macOS .command", () => {
  test("packaged: runs the i next to it (also through a symlink), from HOME", () => {
    const pkg = join(dir, "pkg");
    recorder(pkg, "packaged");
    copyFileSync(join(DESKTOP, "i-console.command"), join(pkg, "i-console.command"));
    chmodSync(join(pkg, "i-console.command"), 0o755);
    spawnSync("ln", ["-s", join(pkg, "i-console.command"), join(dir, "link.command")]);
    const r = spawnSync(join(dir, "link.command"), ["-p", "x"], {
      cwd: "/",
      env: { ...process.env, HOME: dir },
      encoding: "utf8",
    });
    expect(r.stderr).toBe("");
    expect(ran()).toEqual([`packaged|${dir}|start --desktop -p x`]);
  }, 30_000);
});

describe("Windows batch files (structural check: no cmd.exe on this machine)", () => {
  const OLD_START_CMD = [
    "@echo off",
    "setlocal",
    'set "HERE=%~dp0"',
    "for %%C in (init doctor) do (",
    '  if /I "%~1"=="%%C" ( "%HERE%i.exe" %* & exit /b %ERRORLEVEL% )',
    ")",
    'set "MANIFEST=%TEMP%\\i-manifest-%RANDOM%%RANDOM%.json"',
    '"%HERE%i.exe" %* --manifest "%MANIFEST%"',
    "exit /b %ERRORLEVEL%",
    "",
  ].join("\r\n");

  test("the checker catches what the old start.cmd got wrong", () => {
    expect(batchProblems(OLD_START_CMD)).toEqual([
      "%RANDOM% names can collide",
      "%ERRORLEVEL% inside the ( ) block at line 4 is expanded before the block runs",
    ]);
    expect(batchProblems("@echo off\nexit /b 0\n")).toEqual(["LF-only line endings (cmd.exe needs CRLF)"]);
  }, 30_000);

  for (const file of ["start.cmd", "desktop/i-console.cmd"]) {
    test(`${file}: clean, and hands every argument to i.exe start`, () => {
      const text = readFileSync(join(ROOT, "scripts", file), "utf8");
      expect(batchProblems(text)).toEqual([]);
      const lines = text.split("\r\n");
      const call = lines.findIndex((l) => l.startsWith('"%~dp0i.exe" start '));
      expect(call).toBeGreaterThan(0);
      // %* forwards --profile and everything else; `i start` makes the manifest in a unique temp dir.
      expect(lines[call]?.endsWith(" %*")).toBe(true);
      // The exit code is read right after the call, outside any block, so it is the call's own.
      expect(lines[call + 1]).toMatch(/^(exit \/b %ERRORLEVEL%|set "STATUS=%ERRORLEVEL%")$/);
      expect(lines.some((l) => /^exit \/b %(ERRORLEVEL|STATUS)%$/.test(l))).toBe(true);
    });
  }
});

describe("desktop launch in a source checkout: desktop.json when it exists", () => {
  test("scripts/desktop/i-console.command → start.sh --desktop → i", async () => {
    const rig = await makeRig({ script: [{ text: "fresh" }, { text: "saved" }] });
    try {
      const tools = (i: number) =>
        (
          (rig.mock.requests[i]?.body as { tools?: { function?: { name: string } }[] } | undefined)?.tools ??
          []
        ).map((t) => t.function?.name);
      const env = { ...process.env, ...rig.env, HOME: rig.root };
      const launch = () =>
        startProgram(join(DESKTOP, "i-console.command"), ["-p", "hi", ...rig.flags], { env, cwd: "/" }).done;
      // No desktop.json: a fresh manifest of the standard profile (it has grep).
      let r = await launch();
      expect(r.stderr).toBe("");
      expect(r.stdout).toBe("fresh\n");
      expect(tools(0)).toContain("grep");
      // A saved desktop.json of the compact profile is used as-is (no grep).
      const manifest = spawnSync(
        process.execPath,
        [join(ROOT, "src/cli/main.ts"), "--runtime", "manifest", "compact"],
        {
          env,
          encoding: "utf8",
        },
      );
      writeFileSync(join(rig.configDir, "desktop.json"), manifest.stdout);
      r = await launch();
      expect(r.stderr).toBe("");
      expect(r.stdout).toBe("saved\n");
      expect(tools(1)).not.toContain("grep");
    } finally {
      await rig.close();
    }
  }, 30_000);
});
