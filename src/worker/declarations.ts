// The handshake check: a worker must declare exactly the hooks and tools of the module it replaces (names and
// schemas are public), so a replacement cannot silently drop or reshape part of an interface.

import { matcherRegExp } from "../contract/hooks-file.ts";
import { type HelloReplyData, SUMMARISABLE, type ToolDecl } from "../contract/protocol.ts";
import { MODULES, type ModuleName, moduleToolDecls, toolDecl } from "../contract/registry.ts";
import { jsonEqual } from "../lib/json-equal.ts";

/** Any module may additionally ask to be notified after each checkpoint. */
export const OPTIONAL_HOOKS: readonly string[] = ["checkpoint"];

function list(names: Iterable<string>): string {
  return [...names].map((n) => `"${n}"`).join(", ");
}

function hookDifference(module: ModuleName, declared: string[]): string[] {
  const expected = new Set<string>(MODULES[module].hooks);
  const got = new Set(declared);
  const problems: string[] = [];
  const missing = [...expected].filter((h) => !got.has(h));
  const extra = [...got].filter((h) => !expected.has(h) && !OPTIONAL_HOOKS.includes(h));
  if (missing.length) problems.push(`missing hook(s) ${list(missing)}`);
  if (extra.length) problems.push(`undeclared hook(s) ${list(extra)}`);
  return problems;
}

function toolDifference(module: ModuleName, declared: ToolDecl[]): string[] {
  const required = new Map(moduleToolDecls(module).map((t) => [t.name, t]));
  const optional = new Map((MODULES[module].optionalTools ?? []).map((s) => [s.name, toolDecl(s)]));
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const t of declared) {
    if (seen.has(t.name)) problems.push(`tool "${t.name}" declared twice`);
    seen.add(t.name);
    const want = required.get(t.name) ?? optional.get(t.name);
    if (!want) {
      problems.push(`undeclared tool "${t.name}"`);
      continue;
    }
    const spec = MODULES[module].tools.find((s) => s.name === t.name);
    if (t.description !== want.description && !spec?.dynamicDescription)
      problems.push(`tool "${t.name}": description differs`);
    if (!jsonEqual(t.input_schema, want.input_schema))
      problems.push(`tool "${t.name}": input_schema differs`);
  }
  const missing = [...required.keys()].filter((n) => !seen.has(n));
  if (missing.length) problems.push(`missing tool(s) ${list(missing)}`);
  return problems;
}

/** A module may ask for a history summary only on its own hooks, and only where the contract allows one. */
function payloadDifference(hello: HelloReplyData): string[] {
  const problems: string[] = [];
  for (const [event, form] of Object.entries(hello.payloads ?? {})) {
    if (!hello.hooks.includes(event)) problems.push(`payloads names "${event}", which it does not declare`);
    else if (form === "summary" && !Object.hasOwn(SUMMARISABLE, event))
      problems.push(
        `payloads asks for a history summary on "${event}", which always receives the full history`,
      );
  }
  return problems;
}

/** Hook options may name only hooks the module declares, and tool patterns must be regular expressions. */
function hookOptionsDifference(hello: HelloReplyData): string[] {
  const problems: string[] = [];
  for (const [event, o] of Object.entries(hello.hook_options ?? {})) {
    if (!hello.hooks.includes(event))
      problems.push(`hook_options names "${event}", which it does not declare`);
    for (const t of o.tools ?? []) {
      try {
        matcherRegExp(t);
      } catch {
        problems.push(`hook_options.${event}.tools: "${t}" is not a regular expression`);
      }
    }
  }
  return problems;
}

/** What differs between a worker's hello reply and the module's public declaration, or undefined if nothing. */
export function declarationDifference(module: ModuleName, hello: HelloReplyData): string | undefined {
  const problems: string[] = [];
  if (hello.module !== module) problems.push(`it says it is module "${hello.module}"`);
  problems.push(...hookDifference(module, hello.hooks), ...toolDifference(module, hello.tools));
  problems.push(...payloadDifference(hello), ...hookOptionsDifference(hello));
  if (hello.runtime_tools?.length && !MODULES[module].runtimeTools)
    problems.push("it declares runtime_tools, but this module owns no tool namespace");
  return problems.length ? problems.join("; ") : undefined;
}
