// The servers of a session: which definition serves a file (by extension), which project root it belongs
// to (the nearest root marker above it, inside the workspace; the workspace itself when there is none), and
// one LspServer per definition and root, started the first time one of its files is touched.
import { existsSync } from "node:fs";
import { dirname, extname, isAbsolute, join, relative } from "node:path";
import type { LspServerStatus } from "../../src/contract/lsp.ts";
import {
  type LoadedLspServers,
  type LspServerDef,
  loadLspServers,
  resolveCommand,
} from "../../src/lib/lsp-config.ts";
import { LspServer } from "./server.ts";

export interface Served {
  server?: LspServer;
  def?: LspServerDef;
  /** why no server serves the file (undefined: the file's language has none, nothing to say) */
  why?: string;
}

function inside(workspace: string, path: string): boolean {
  const rel = relative(workspace, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

export class LspFleet {
  readonly servers = new Map<string, LspServer>();
  private loaded: LoadedLspServers | undefined;
  private readonly said = new Set<string>();
  private pending: string[] = [];
  private readonly commands = new Map<string, string[] | undefined>();

  constructor(
    readonly configDir: string,
    readonly workspace: string,
  ) {}

  /** Lines for the user, each said once per session. */
  notice(line: string): void {
    if (this.said.has(line)) return;
    this.said.add(line);
    this.pending.push(line);
  }

  takeNotices(): string[] {
    return this.pending.splice(0);
  }

  defs(): LspServerDef[] {
    if (!this.loaded) {
      this.loaded = loadLspServers(this.configDir, this.workspace);
      for (const p of this.loaded.problems) this.notice(p);
    }
    return this.loaded.servers;
  }

  /** The definition's command as found on PATH (looked up once). */
  command(def: LspServerDef): string[] | undefined {
    if (!this.commands.has(def.name)) this.commands.set(def.name, resolveCommand(def));
    return this.commands.get(def.name);
  }

  /**
   * Whether there is anything to do or say (else the module asks the core to send it nothing): a server
   * that can run, one the user configured (its missing command is worth a line), or a problem to tell.
   */
  anyAvailable(): boolean {
    const defs = this.defs();
    if (this.pending.length > 0 || this.loaded?.projectUntrusted) return true;
    return defs.some((d) => this.usable(d));
  }

  /** A server that can run, or one the user configured (its missing command is worth a line). */
  private usable(d: LspServerDef): boolean {
    return !d.disabled && (d.source !== "built-in" || this.command(d) !== undefined);
  }

  /**
   * The file extensions some server takes (built-in ones found on PATH and every configured one), or
   * undefined while a line is waiting to be said: the next change of any file says it.
   */
  extensions(): string[] | undefined {
    const defs = this.defs();
    if (this.pending.length > 0 || this.loaded?.projectUntrusted) return undefined;
    const usable = defs.filter((d) => this.usable(d));
    return [...new Set(usable.flatMap((d) => d.extensions.map((e) => e.toLowerCase())))];
  }

  private rootFor(def: LspServerDef, path: string): string {
    let dir = dirname(path);
    while (inside(this.workspace, dir)) {
      if (def.rootMarkers.some((m) => existsSync(join(dir, m)))) return dir;
      if (dir === this.workspace) break;
      const up = dirname(dir);
      if (up === dir) break;
      dir = up;
    }
    return this.workspace;
  }

  /** The server for `path`, created (not started) when needed. */
  serve(path: string): Served {
    if (!inside(this.workspace, path)) return {};
    const ext = extname(path).toLowerCase();
    // An extension matches in any case (".TS" in lsp.json serves a.ts), as the core's filter matches it.
    const def = this.defs().find((d) => !d.disabled && d.extensions.some((e) => e.toLowerCase() === ext));
    if (!def) return {};
    const argv = this.command(def);
    if (!argv) {
      // A built-in whose program is not installed is simply not there; a configured one is a mistake.
      if (def.source === "built-in") return { def };
      return {
        def,
        why: `lsp: ${def.source}: server "${def.name}": command "${def.commands[0]?.[0]}" was not found on PATH; install it or fix the command`,
      };
    }
    const root = this.rootFor(def, path);
    const key = `${def.name}\0${root}`;
    let server = this.servers.get(key);
    if (!server) {
      server = new LspServer({
        def,
        argv,
        root,
        configDir: this.configDir,
        notice: (line) => this.notice(line),
      });
      this.servers.set(key, server);
    }
    return { server, def };
  }

  /** Every definition, with each of its processes as it stands (`/lsp`). */
  status(): LspServerStatus[] {
    const out: LspServerStatus[] = [];
    for (const def of this.defs()) {
      const argv = this.command(def);
      const command = argv ? argv.join(" ") : null;
      const running = [...this.servers.values()].filter((s) => s.name === def.name);
      if (running.length === 0) {
        const state = def.disabled ? "disabled" : argv ? "not started" : "not installed";
        out.push({ name: def.name, command: command ?? def.commands.map((c) => c[0]).join(" or "), state });
        continue;
      }
      for (const s of running)
        out.push({
          name: def.name,
          command,
          state: s.state,
          root: s.root,
          open_files: s.open.size,
          crashes: s.crashes,
          ...(s.info.version ? { version: `${s.info.name ?? ""} ${s.info.version}`.trim() } : {}),
          ...(s.initializeMs !== undefined ? { initialize_ms: s.initializeMs } : {}),
          ...(s.logPath ? { log: s.logPath } : {}),
        });
    }
    return out;
  }

  async close(): Promise<void> {
    await Promise.all([...this.servers.values()].map((s) => s.close()));
  }
}
