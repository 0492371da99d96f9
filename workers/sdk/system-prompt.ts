// The `system_prompt` hook data, shared by every module that adds to the system prompt. Each module appends
// its own section and hands the rest of the data on untouched (the core runs them as a pipeline).
import { SystemPromptData } from "../../src/contract/hooks.ts";
import type { Data } from "./module.ts";

export function systemText(data: Data, module: string): string {
  const r = SystemPromptData.safeParse(data);
  if (!r.success) throw new Error(`${module}: system_prompt data.system must be a string`);
  return r.data.system;
}

/** `data` with `section` appended to `data.system`, separated by a blank line. Empty sections add nothing. */
export function appendToSystem<D extends Data>(data: D, module: string, section: string): D {
  const system = systemText(data, module);
  if (section.trim() === "") return data;
  const sep = system === "" || system.endsWith("\n\n") ? "" : system.endsWith("\n") ? "\n" : "\n\n";
  return { ...data, system: `${system}${sep}${section}` };
}
