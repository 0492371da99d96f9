// A mistake or refusal the model should read: runCoreTool turns it into an is_error tool result.
export class ToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ToolError";
  }
}
