#!/usr/bin/env node
// `i` installed with npm: runs the standalone executable of this machine's package (i-agent-<os>-<cpu>),
// which npm installed through optionalDependencies, picking it by the packages' os/cpu fields. Nothing is
// downloaded at install time and there is no postinstall script.
const { spawn } = require("node:child_process");
const path = require("node:path");

const os = { linux: "linux", darwin: "darwin", win32: "windows" }[process.platform];
const target = `${os}-${process.arch}`;
const SUPPORTED = ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "windows-x64"];

function fail(message) {
  process.stderr.write(`i: ${message}\n`);
  process.exit(1);
}

if (!SUPPORTED.includes(target))
  fail(`no build for ${process.platform}-${process.arch}; supported: ${SUPPORTED.join(", ")}`);
const pkg = `i-agent-${target}`;
let binary;
try {
  binary = path.join(
    path.dirname(require.resolve(`${pkg}/package.json`)),
    "bin",
    os === "windows" ? "i.exe" : "i",
  );
} catch {
  fail(
    `the package ${pkg} that holds the i executable is not installed (optional dependencies were left out?); reinstall with: npm install -g i-agent`,
  );
}

// Where Node can replace this process with the executable (Node ≥ 22.15 on Unix), nothing stays between
// i and the terminal: no second process, no signal forwarding.
if (typeof process.execve === "function" && os !== "windows") {
  try {
    process.execve(binary, [binary, ...process.argv.slice(2)], process.env);
  } catch (err) {
    fail(`cannot start ${binary}: ${err.message}`);
  }
}

const child = spawn(binary, process.argv.slice(2), { stdio: "inherit" });
// Ctrl-C and Ctrl-\ reach the whole foreground process group: i handles them itself, and this launcher
// must outlive it to pass on its exit status. Termination requests sent to the launcher alone go on to i.
for (const signal of ["SIGINT", "SIGQUIT"]) process.on(signal, () => {});
for (const signal of ["SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal));
child.on("error", (err) => fail(`cannot start ${binary}: ${err.message}`));
child.on("exit", (code, signal) => {
  if (signal) {
    // Die of the same signal, so the caller sees what happened to i.
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 1);
});
