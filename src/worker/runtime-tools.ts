// The tools modules declare at run time, as the core accepts them: each name in the declaring module's own
// namespace, none shadowing a core tool or another module's tool. What is refused is said once, as a
// notice, and left out; the rest of the list stands.
import type { ModuleName } from "../contract/registry.ts";
import { RUNTIME_TOOL_NAME, type RuntimeToolDecl } from "../contract/runtime-tools.ts";

export interface RuntimeEntry {
  module: ModuleName;
  decl: RuntimeToolDecl;
}

export class RuntimeToolTable {
  private readonly byName = new Map<string, RuntimeEntry>();
  private readonly said = new Set<string>();

  /**
   * @param reserved names already taken, by whom: core tools ("a core tool") and fixed module tools
   */
  constructor(private readonly reserved: (name: string) => string | undefined) {}

  /** Replace `module`'s runtime tools with `decls`; returns the refusals not said before. */
  set(module: ModuleName, namespace: string, decls: readonly RuntimeToolDecl[]): string[] {
    for (const [name, e] of this.byName) if (e.module === module) this.byName.delete(name);
    const problems: string[] = [];
    for (const decl of decls) {
      const problem = this.refusal(module, namespace, decl);
      if (problem) problems.push(problem);
      else this.byName.set(decl.name, { module, decl });
    }
    const fresh = problems.filter((p) => !this.said.has(p));
    for (const p of fresh) this.said.add(p);
    return fresh;
  }

  private refusal(module: ModuleName, namespace: string, decl: RuntimeToolDecl): string | undefined {
    const name = decl.name;
    const head = `module "${module}" declared tool "${name}"`;
    if (!RUNTIME_TOOL_NAME.test(name)) return `${head}, which is not a valid tool name; left out`;
    const taken = this.reserved(name);
    if (taken) return `${head}, which clashes with ${taken}; left out`;
    if (!name.startsWith(namespace)) return `${head} outside its namespace "${namespace}"; left out`;
    const other = this.byName.get(name);
    if (other && other.module !== module)
      return `${head}, which clashes with module "${other.module}"'s tool; left out`;
    if (other) return `${head} twice; the first is kept`;
    return undefined;
  }

  get(name: string): RuntimeEntry | undefined {
    return this.byName.get(name);
  }

  entries(): IterableIterator<RuntimeEntry> {
    return this.byName.values();
  }
}
