// `i task-child`: run one sub-agent task (started by the task tool's worker, the task on stdin).
import { defineSubcommand } from "../command.ts";

export const command = defineSubcommand(
  {
    name: "i task-child",
    description: "Run one sub-agent task (internal: started by the task tool, the task on stdin)",
    args: {},
  },
  async () => {
    const { runChildSession } = await import("../../agent/child-session.ts");
    return runChildSession();
  },
);
