// Built-in modules take their tool declarations from the module registry, never from a copy, so a worker
// cannot drift from what the core checks at hello.

import type { ToolDecl } from "../../src/contract/protocol.ts";
import { MODULES, type ModuleName, toolDecl } from "../../src/contract/registry.ts";

/** The registry's declaration of `tool` (required or optional) for `module`; throws if it has none. */
export function registryToolDecl(module: ModuleName, tool: string): ToolDecl {
  const spec = [...MODULES[module].tools, ...(MODULES[module].optionalTools ?? [])].find(
    (t) => t.name === tool,
  );
  if (!spec) throw new Error(`the module registry declares no tool "${tool}" for ${module}`);
  return toolDecl(spec);
}
