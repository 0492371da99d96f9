// Bounds on text that workers put in front of the model: the shared lib's helpers, also used by the core
// (a skill sent as a slash command is cut like the skill tool's answer).
export * from "../../src/lib/text-limits.ts";
