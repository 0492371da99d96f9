// This run's requests by the model that served them: tokens, count and cost at that model's price when
// it had one. /cost breaks the session's one total down with it, so its parts add up to that total.

export interface ModelUsage {
  model: string;
  requests: number;
  input_tokens: number;
  output_tokens: number;
  /** absent: this model has no price (its requests cost an unknown amount) */
  cost_usd?: number;
}

export class UsageLedger {
  private readonly byModel = new Map<string, ModelUsage>();

  add(model: string, input: number, output: number, costUsd: number | undefined): void {
    const row = this.byModel.get(model) ?? { model, requests: 0, input_tokens: 0, output_tokens: 0 };
    row.requests++;
    row.input_tokens += input;
    row.output_tokens += output;
    if (costUsd !== undefined) row.cost_usd = (row.cost_usd ?? 0) + costUsd;
    this.byModel.set(model, row);
  }

  /** One row per model, in the order they first served a request. */
  rows(): readonly ModelUsage[] {
    return [...this.byModel.values()];
  }
}
