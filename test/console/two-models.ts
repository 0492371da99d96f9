// A config.json `models` table with the rig's model and a second one, for tests that switch with /model.
export const TWO_MODELS = {
  models: {
    "mock-model": { context_window: 100_000, max_output_tokens: 4096 },
    "other-model": { context_window: 50_000, max_output_tokens: 2048 },
  },
};
