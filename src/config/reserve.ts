// budget.json reserve_tokens against the chosen model: a reserve that fills the whole window leaves no
// room for any request, so every run (and `i doctor`) refuses it up front.
import { join } from "node:path";
import type { BudgetFile } from "../contract/config.ts";
import { UserError } from "../contract/errors.ts";

export function checkReserve(
  budget: BudgetFile,
  model: { name: string; context_window: number },
  configDir: string,
): void {
  const reserve = budget.reserve_tokens;
  if (reserve !== undefined && reserve >= model.context_window) {
    throw new UserError(
      `${join(configDir, "budget.json")}: field reserve_tokens: ${reserve} leaves no room in the ${model.context_window}-token context window of ${model.name}; set it well below the window`,
    );
  }
}
