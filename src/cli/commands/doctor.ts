// `i doctor`: validate every config file and binding, start each worker of the active profile, check its
// handshake and one round trip, and print a table. Config mistakes are one line and exit 2 (like every
// command); a worker problem is a row marked FAILED, its cause below the table, and exit 1.

import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../config/load.ts";
import { configDir } from "../../config/paths.ts";
import { sanitize } from "../../terminal/sanitize.ts";
import { sandboxAvailability } from "../../tools/sandbox.ts";
import { defineSubcommand } from "../command.ts";

function shellWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? "").length))) ?? [];
  return rows
    .map((r) =>
      r
        .map((cell, c) => cell.padEnd(widths[c] ?? 0))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

const ms = (v: number | undefined) =>
  v === undefined ? "-" : v < 10 ? `${v.toFixed(2)} ms` : `${v.toFixed(0)} ms`;

/** Whether `--sandbox` would work here; informational (the sandbox is opt-in). */
function sandboxLine(): string {
  const a = sandboxAvailability();
  return "problem" in a
    ? `sandbox: not available (--sandbox would be refused): ${a.problem}`
    : `sandbox: available (--sandbox workspace-write runs bash in ${a.bwrap})`;
}

export const command = defineSubcommand(
  {
    name: "i doctor",
    description: "Check config files, bindings and every worker of the active profile",
    args: {
      profile: { type: "string", description: "check this profile instead of the active one" },
    },
  },
  async (args) => {
    const dir = configDir();
    const cfg = loadConfig(dir);
    const [{ generateManifest }, { loadManifestFile }] = await Promise.all([
      import("../../manifest/generate.ts"),
      import("../../manifest/load.ts"),
    ]);
    // desktop.json is a hand-written (or saved) manifest: it passes the checks of any loaded manifest.
    const desktop = join(dir, "desktop.json");
    if (existsSync(desktop)) loadManifestFile(desktop);
    // The console always adds steering (bound or built-in) with a queue file: check it the same way.
    const { withSteering } = await import("../../manifest/steering.ts");
    const queueDir = mkdtempSync(join(tmpdir(), "i-doctor-"));
    const manifest = withSteering(
      generateManifest({
        profile: args.profile || undefined,
        configDir: dir,
        plugins: cfg.plugins,
        bindings: cfg.bindings,
      }),
      join(queueDir, "queue.jsonl"),
      { binding: cfg.bindings.steering },
    );

    const { WorkerHost } = await import("../../worker/host.ts");
    const { checkWorkers } = await import("../../worker/doctor-check.ts");
    const host = new WorkerHost(manifest, { workspace: process.cwd(), configDir: dir });
    let checks: Awaited<ReturnType<typeof checkWorkers>>;
    try {
      checks = await checkWorkers(manifest, host);
    } finally {
      await host.close();
      rmSync(queueDir, { recursive: true, force: true });
    }

    const out: string[] = [
      `config ${dir}: ok (config.json, plugins.json, bindings.json, budget.json; module files are checked by their workers below)`,
    ];
    out.push(
      `profile ${manifest.profile}: ${manifest.modules.length} module(s), with steering (the console adds it)`,
      sandboxLine(),
      "",
    );
    const rows = [["MODULE", "KIND", "EXEC", "STATUS", "START", "ROUND TRIP"]];
    for (const c of checks) {
      // Built-ins: which modules share the process; the throwaway queue path would only add noise.
      const exec = c.builtin
        ? `i worker ${c.exec[c.exec.indexOf("worker") + 1] ?? ""}`
        : c.exec.map(shellWord).join(" ");
      const kind = c.builtin ? "built-in" : "bound";
      rows.push([c.module, kind, exec, c.ok ? "ok" : "FAILED", ms(c.startMs), ms(c.roundTripMs)]);
    }
    out.push(table(rows), "");
    const failed = checks.filter((c) => !c.ok);
    for (const c of failed) out.push(`${c.module}: ${c.problem}`);
    if (failed.length) out.push(`worker logs: ${join(dir, "logs")}`);
    out.push(
      failed.length
        ? `${failed.length} of ${checks.length} module(s) FAILED`
        : `all ${checks.length} module(s) ok`,
    );
    // Worker names, problems and paths come from config files and worker output: shown inert.
    process.stdout.write(`${sanitize(out.join("\n"))}\n`);
    return failed.length ? 1 : 0;
  },
);
