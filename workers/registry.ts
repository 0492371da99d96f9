// The default worker modules built into the `i` executable, loaded only when `i worker` names them.
import type { ModuleName } from "../src/contract/registry.ts";
import type { WorkerModule } from "./sdk/module.ts";
import { type ServeOptions, serve } from "./sdk/serve.ts";

type Loader = () => Promise<WorkerModule>;

/** Every module of the registry has its built-in implementation here (the type makes that complete). */
export const BUILTIN_WORKERS: Record<ModuleName, Loader> = {
  budget: () => import("./budget/index.ts").then((m) => m.budgetModule),
  compact: () => import("./compact/index.ts").then((m) => m.compactModule),
  cache: () => import("./cache/index.ts").then((m) => m.cacheModule),
  prompts: () => import("./prompts/index.ts").then((m) => m.createPromptsModule()),
  skills: () => import("./skills/index.ts").then((m) => m.createSkillsModule()),
  memory: () => import("./memory/index.ts").then((m) => m.createMemoryModule()),
  search: () => import("./search/index.ts").then((m) => m.createSearchModule()),
  web: () => import("./web/index.ts").then((m) => m.loadWebModule()),
  responses: () => import("./responses/index.ts").then((m) => m.responsesModule),
  agents: () => import("./agents/index.ts").then((m) => m.createAgentsModule()),
  hooks: () => import("./hooks/index.ts").then((m) => m.createHooksModule()),
  steering: () => import("./steering/index.ts").then((m) => m.createSteeringModule()),
  mcp: () => import("./mcp/index.ts").then((m) => m.createMcpModule()),
  plan: () => import("./plan/index.ts").then((m) => m.planModule),
  lsp: () => import("./lsp/index.ts").then((m) => m.createLspModule()),
};

/** Serve the named built-in modules as one worker on stdio (what `i worker a,b` runs). */
export async function serveBuiltins(names: readonly ModuleName[], opts: ServeOptions = {}): Promise<void> {
  const modules = await Promise.all(names.map((name) => BUILTIN_WORKERS[name]()));
  await serve(modules, undefined, opts);
}
