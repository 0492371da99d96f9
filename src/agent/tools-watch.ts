// Which modules must be asked for their tools before the next model request. A module that watches
// (`tools_watch`) has one such request open at all times; until it answers "changed", the usual turn
// asks it nothing — no round trip, no reply to parse. A module that does not watch, one whose watch
// failed, and one that said it changed are asked as before.
import type { ModuleName } from "../contract/registry.ts";
import type { WorkerHost } from "../worker/host.ts";

/** How long one watch request stays open before it is renewed (a renewal is one small round trip). */
export const WATCH_MS = 60_000;

export class ToolsWatch {
  /** modules with a watch request open */
  private readonly watching = new Set<ModuleName>();

  constructor(
    private readonly host: WorkerHost,
    private readonly waitMs = WATCH_MS,
  ) {}

  /** The modules of `modules` to ask before the next request. */
  due(modules: readonly ModuleName[]): ModuleName[] {
    return modules.filter((m) => !this.watching.has(m));
  }

  /** `modules` were just asked: watch those that can be watched from what they said. */
  asked(modules: readonly ModuleName[]): void {
    for (const m of modules) if (!this.watching.has(m)) this.open(m);
  }

  private open(module: ModuleName): void {
    this.watching.add(module);
    const ended = (renew: boolean) => {
      this.watching.delete(module);
      // Nothing changed in all that time: keep watching. Changed, failed or not watchable: ask.
      if (renew) this.open(module);
    };
    this.host.watchTools(module, this.waitMs).then(
      (changed) => ended(changed === false),
      () => ended(false),
    );
  }
}
