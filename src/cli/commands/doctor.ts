// `i doctor`: every check a run makes, reported instead of stopping at the first — config files (absent
// ones said to be absent), auth.json, the provider/model/reserve/key a run with the same flags would use,
// desktop.json against what the current bindings generate, each module's own config file, and each
// worker's start, handshake and one round trip; with --online one small model request. Exit 2 when a
// run would exit 2 (a config or target problem), 1 when only workers or the endpoint failed, else 0.
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolveWorkspace } from "../../agent/options.ts";
import { moduleConfigProblem } from "../../config/module-configs.ts";
import { configDir, dirProblem } from "../../config/paths.ts";
import { UserError } from "../../contract/errors.ts";
import type { Manifest } from "../../contract/manifest.ts";
import type { ModuleName } from "../../contract/registry.ts";
import { cloudRows } from "../../doctor/clouds.ts";
import { checkConfigFiles, webRow } from "../../doctor/config-files.ts";
import { desktopRow } from "../../doctor/desktop.ts";
import { mcpRows } from "../../doctor/mcp.ts";
import { printReport } from "../../doctor/print.ts";
import { count, type Line, Painted, type Row, section } from "../../doctor/report.ts";
import { checkEndpoint, checkTarget } from "../../doctor/target.ts";
import { workerRows } from "../../doctor/workers.ts";
import { credentialEnv } from "../../runtime/credential-handoff.ts";
import { removeTempDir } from "../../runtime/remove-temp.ts";
import { stdoutStyle } from "../../terminal/style.ts";
import { terminalColumns } from "../../terminal/width.ts";
import { sandboxAvailability } from "../../tools/sandbox.ts";
import { defineSubcommand } from "../command.ts";
import { TARGET_ARGS, targetFlags } from "../target-args.ts";

/** Whether the sandbox (on by default) runs here; informational. */
function sandboxLine(): string {
  const a = sandboxAvailability();
  return "problem" in a
    ? `sandbox: not available, bash runs unsandboxed (--sandbox would be refused): ${a.problem}`
    : `sandbox: on by default (bash runs in ${a.bwrap}; --sandbox off or config.json sandbox.mode "off" turns it off)`;
}

export const command = defineSubcommand(
  {
    name: "i doctor",
    description: "Check config files, credentials, the model target and every worker of the active profile",
    args: {
      ...TARGET_ARGS,
      online: { type: "boolean", description: "also send one small request to the model endpoint" },
    },
  },
  async (args) => {
    const dir = configDir();
    const flags = targetFlags(args);
    const files = checkConfigFiles(dir);
    const out: Line[] = [];
    const problems: Row[] = [];
    const note = (rows: Row[]) => problems.push(...rows.filter((r) => r.status === "FAILED"));

    // The manifest a run would use: --manifest as-is, else generated from the profile and bindings.
    const [{ generateManifest }, { loadManifestFile }] = await Promise.all([
      import("../../manifest/generate.ts"),
      import("../../manifest/load.ts"),
    ]);
    let manifest: Manifest | undefined;
    const manifestRow: Row = { name: "manifest", status: "ok", detail: "" };
    try {
      if (flags.manifest) manifest = loadManifestFile(flags.manifest);
      else if (files.plugins && files.bindings)
        manifest = generateManifest({
          ...(flags.profile ? { profile: flags.profile } : {}),
          configDir: dir,
          plugins: files.plugins,
          bindings: files.bindings,
        });
    } catch (err) {
      if (!(err instanceof UserError)) throw err;
      Object.assign(manifestRow, { status: "FAILED", problem: err.message });
    }
    const builtinWeb = manifest?.modules.some((m) => m.name === "web" && m.builtin) ?? false;
    // A file where config_dir or the data directory should be stops a run before anything else starts.
    const dirRows: Row[] = (["I_CONFIG_DIR", "I_DATA_DIR"] as const).flatMap((name) => {
      const problem = dirProblem(name);
      const row = name === "I_CONFIG_DIR" ? "config_dir" : "data dir";
      return problem ? [{ name: row, status: "FAILED" as const, detail: "", problem }] : [];
    });
    const fileRows = [
      ...dirRows,
      ...files.rows,
      webRow(dir, builtinWeb),
      desktopRow(dir, flags.manifest ? undefined : manifest),
    ];
    out.push(
      ...section(
        `config_dir ${dir}${existsSync(dir) || dirRows.length > 0 ? "" : " (does not exist yet: `i init` creates it)"}`,
        fileRows,
      ),
    );
    note(fileRows);
    out.push("", sandboxLine());

    const target = files.config ? checkTarget(flags, dir, files.config, files.budget) : undefined;
    const targetRows = target?.rows ?? [
      { name: "target", status: "-" as const, detail: "not checked: config.json is invalid" },
    ];
    // Each cloud set up in config.json, target or not; a failure the target rows already show counts once.
    const clouds = files.config
      ? await cloudRows(files.config, target?.target?.provider, dir, credentialEnv())
      : [];
    const shownAbove = (r: Row) => targetRows.some((t) => t.problem === r.problem);
    const cloudLines = () =>
      clouds.length
        ? [
            "",
            ...section(
              "cloud credentials",
              clouds.map((r) =>
                r.problem && shownAbove(r)
                  ? { ...r, detail: "the target's problem above", problem: undefined }
                  : r,
              ),
            ),
          ]
        : [];
    const cloudFailures = () => clouds.filter((r) => r.status === "FAILED" && !shownAbove(r)).length;

    if (!manifest || dirRows.length > 0) {
      if (manifestRow.status === "FAILED") targetRows.push(manifestRow);
      out.push("", ...section("target", targetRows), ...cloudLines());
      note(targetRows);
      const why = manifest ? "the directories they need are not usable" : "the manifest cannot be built";
      out.push("", `workers: not checked: ${why} (fix the lines above first)`);
      return finish(out, problems, cloudFailures());
    }

    // A module whose own config file is bad is reported alone and left out of the worker start, so the
    // built-ins sharing its process are still checked.
    const badConfig = new Map<ModuleName, string>();
    for (const m of manifest.modules) {
      const problem = moduleConfigProblem(m, dir);
      if (problem) badConfig.set(m.name, problem);
    }
    const workspace = resolveWorkspace(flags.workspace);
    const queueDir = mkdtempSync(join(tmpdir(), "i-doctor-"));
    try {
      const { withSteering } = await import("../../manifest/steering.ts");
      const { WorkerHost } = await import("../../worker/host.ts");
      const startable =
        badConfig.size && !flags.manifest
          ? generateManifest({
              ...(flags.profile ? { profile: flags.profile } : {}),
              configDir: dir,
              plugins: {
                ...files.plugins,
                disabled: [...(files.plugins?.disabled ?? []), ...badConfig.keys()],
              },
              bindings: files.bindings ?? {},
            })
          : manifest;
      // The console always adds steering (bound or built-in) with a queue file: check it the same way.
      const checked = withSteering(startable, join(queueDir, "queue.jsonl"), {
        binding: files.bindings?.steering,
      });
      const { mcpSetup } = await import("../../agent/runtime-tools.ts");
      const { CORE_TOOL_NAMES } = await import("../../tools/index.ts");
      const mcpEnv = badConfig.has("mcp") ? {} : mcpSetup(checked, dir, workspace).env;
      const host = new WorkerHost(checked, {
        workspace,
        configDir: dir,
        reservedToolNames: CORE_TOOL_NAMES,
        moduleEnv: { mcp: mcpEnv },
      });
      try {
        if (target?.target) {
          // The Responses wire needs its module: the run refuses a manifest without one, so doctor does.
          const { createProvider } = await import("../../provider/index.ts");
          const { NO_KEY } = await import("../../provider/credentials.ts");
          try {
            createProvider({
              provider: target.target.provider,
              apiKey: NO_KEY,
              hooks: host,
              ...(target.cloud ? { cloud: target.cloud } : {}),
            });
          } catch (err) {
            if (!(err instanceof UserError)) throw err;
            // Bedrock and Vertex find their credentials when made: the API key row has said that already.
            if (!targetRows.some((r) => r.problem === err.message))
              targetRows.push({ name: "wire", status: "FAILED", detail: "", problem: err.message });
          }
        }
        const workers = await workerRows(manifest, checked, host, badConfig);
        const endpoint =
          args.online && target
            ? await checkEndpoint(target, host)
            : {
                name: "endpoint",
                status: "-" as const,
                detail: "not contacted (`i doctor --online` sends one small request)",
              };
        targetRows.push(endpoint);
        out.push("", ...section("target", targetRows), ...cloudLines());
        note(targetRows.filter((r) => r !== endpoint));
        out.push("", ...workers.lines);
        const servers = checked.modules.some((m) => m.name === "mcp")
          ? await mcpRows(host, dir, workspace)
          : { lines: [], failed: 0 };
        if (servers.lines.length) out.push("", ...servers.lines);
        const languageServers = checked.modules.some((m) => m.name === "lsp")
          ? await (await import("../../doctor/lsp.ts")).lspRows(dir, workspace)
          : { lines: [], failed: 0 };
        if (languageServers.lines.length) out.push("", ...languageServers.lines);
        // A module's file is often also a row above (compact.json, web.json): count each problem once.
        for (const [, problem] of badConfig)
          if (!problems.some((p) => p.problem === problem))
            problems.push({ name: "module", status: "FAILED", detail: "", problem });
        const soft =
          workers.failed +
          servers.failed +
          languageServers.failed +
          (endpoint.status === "FAILED" ? 1 : 0) +
          cloudFailures() -
          badConfig.size;
        if (workers.failed) out.push(`worker logs: ${join(dir, "logs")}`);
        return finish(out, problems, soft);
      } finally {
        await host.close();
      }
    } finally {
      removeTempDir(queueDir);
    }
  },
);

/** Print the report and its verdict: exit 2 for what would make a run exit 2, 1 for the rest. */
function finish(out: Line[], problems: Row[], softFailures: number): number {
  const failed = problems.length > 0 || softFailures > 0;
  const verdict = problems.length
    ? `${count(problems.length, "problem")} a run would stop at (exit 2): fix the lines above`
    : softFailures
      ? `${count(softFailures, "check")} FAILED`
      : "all checks ok";
  const painted = new Painted(failed ? stdoutStyle.red(verdict) : stdoutStyle.green(verdict));
  // File names, problems and paths come from config files and worker output: render shows them inert.
  printReport(out, painted, failed, terminalColumns());
  return problems.length ? 2 : softFailures ? 1 : 0;
}
