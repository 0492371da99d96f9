// Session modes are the approval modes (what bash, write and edit need), and the model is a session
// config option; both also appear as config options, for clients that only show those.
import type { SessionConfigOption, SessionModeState } from "@agentclientprotocol/sdk";
import { APPROVAL_LABELS, type ApprovalPolicy, type ModelChoice } from "../agent/agent-session.ts";

const DESCRIPTIONS: Record<ApprovalPolicy, string> = {
  ask: "ask before each command and file change",
  edits: "change files without asking; ask before commands",
  all: "run commands and change files without asking",
  none: "read-only: no commands, no file changes",
};

export const MODE_IDS: readonly ApprovalPolicy[] = ["ask", "edits", "all", "none"];

const title = (s: string) => `${s[0]?.toUpperCase() ?? ""}${s.slice(1)}`;

export function isMode(id: string): id is ApprovalPolicy {
  return (MODE_IDS as readonly string[]).includes(id);
}

export function modeState(current: ApprovalPolicy): SessionModeState {
  return {
    currentModeId: current,
    availableModes: MODE_IDS.map((id) => ({
      id,
      name: title(APPROVAL_LABELS[id]),
      description: DESCRIPTIONS[id],
    })),
  };
}

export function configOptions(
  mode: ApprovalPolicy,
  model: string,
  models: readonly ModelChoice[],
): SessionConfigOption[] {
  const names = models.some((m) => m.name === model)
    ? models
    : [{ name: model, source: "config" as const }, ...models];
  return [
    {
      id: "mode",
      name: "Approvals",
      category: "mode",
      type: "select",
      currentValue: mode,
      options: MODE_IDS.map((id) => ({
        value: id,
        name: title(APPROVAL_LABELS[id]),
        description: DESCRIPTIONS[id],
      })),
    },
    {
      id: "model",
      name: "Model",
      category: "model",
      type: "select",
      currentValue: model,
      options: names.map((m) => ({
        value: m.name,
        name: m.name,
        description: [m.source, m.context_window ? `${Math.round(m.context_window / 1000)}k context` : ""]
          .filter(Boolean)
          .join(", "),
      })),
    },
  ];
}
