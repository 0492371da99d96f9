// config_dir/keybindings.json: which keys do the console's actions. Each action takes one key or a list of
// keys ([] unbinds it); actions left out keep their defaults. A key is written like "ctrl+s", "alt+enter",
// "shift+tab", "escape" or a single character: lower-case modifiers joined by "+", then a key name.
import { z } from "zod";

export const KEY_ACTIONS = {
  submit: { keys: ["enter"], help: "send the message (also chooses in a list)" },
  newline: { keys: ["shift+enter", "alt+enter"], help: "a new line (ctrl+j too, unless bound)" },
  cancel: { keys: ["escape"], help: "cancel the running turn, close a list" },
  interrupt: { keys: ["ctrl+c"], help: "clear the line; twice on an empty line: exit" },
  exit: { keys: ["ctrl+d"], help: "exit on an empty line" },
  "history-prev": { keys: ["up", "ctrl+p"], help: "the previous message from history" },
  "history-next": { keys: ["down", "ctrl+n"], help: "the next message from history" },
  "history-search": { keys: ["ctrl+r"], help: "search the history" },
  complete: { keys: ["tab"], help: "complete a /command or @path" },
  redraw: { keys: ["ctrl+l"], help: "redraw the screen" },
  "external-editor": { keys: ["ctrl+g"], help: "edit the message in $VISUAL or $EDITOR" },
  find: { keys: ["ctrl+f"], help: "search the transcript (n older, N newer match)" },
  "paste-image": { keys: ["ctrl+v"], help: "attach the image on the clipboard" },
  "approve-yes": { keys: ["y"], help: "at an approval question: yes" },
  "approve-always": { keys: ["a"], help: "at an approval question: yes for the session" },
  "approve-no": { keys: ["n"], help: "at an approval question: no" },
  "expand-reasoning": { keys: ["ctrl+o"], help: "show the last reasoning whole" },
  "switch-approval-mode": { keys: ["shift+tab"], help: "cycle approvals: ask → accept edits → all" },
} as const satisfies Record<string, { keys: readonly string[]; help: string }>;

export type KeyAction = keyof typeof KEY_ACTIONS;
export const KEY_ACTION_NAMES = Object.keys(KEY_ACTIONS) as KeyAction[];

export const KEY_NAMES = [
  "enter",
  "tab",
  "backspace",
  "delete",
  "escape",
  "up",
  "down",
  "left",
  "right",
  "home",
  "end",
  "pageup",
  "pagedown",
  "insert",
  "space",
] as const;
const ALIASES: Record<string, string> = {
  esc: "escape",
  return: "enter",
  del: "delete",
  pgup: "pageup",
  pgdn: "pagedown",
};
const MODIFIERS = ["ctrl", "alt", "shift"] as const;

export interface KeySpec {
  /** a KEY_NAMES name, or "char" with `ch` */
  name: string;
  ch?: string;
  ctrl: boolean;
  alt: boolean;
  shift: boolean;
}

/** A key as written in keybindings.json, or why it is not one (one phrase, with the fix). */
export function parseKey(text: string): KeySpec | string {
  if (/["'`]/.test(text)) return `"${text}" has quotes in it; write the key alone, e.g. "ctrl+s"`;
  if (/\s/.test(text)) return `"${text}" has spaces in it; write keys like "ctrl+s" (no spaces)`;
  if (text === "") return `an empty key; write keys like "ctrl+s"`;
  // "+" alone (or as the last part, "ctrl++") is the plus key itself.
  const parts =
    text === "+" ? ["+"] : text.endsWith("++") ? [...text.slice(0, -2).split("+"), "+"] : text.split("+");
  const last = parts.pop() as string;
  const spec: KeySpec = { name: "char", ctrl: false, alt: false, shift: false };
  for (const m of parts) {
    const mod = m.toLowerCase() === "meta" || m.toLowerCase() === "option" ? "alt" : m.toLowerCase();
    if (!(MODIFIERS as readonly string[]).includes(mod))
      return `"${text}": unknown modifier "${m}"; modifiers are ctrl, alt and shift`;
    spec[mod as (typeof MODIFIERS)[number]] = true;
  }
  const lower = last.toLowerCase();
  const name = ALIASES[lower] ?? lower;
  if ((KEY_NAMES as readonly string[]).includes(name)) {
    if (name === "space") return { ...spec, ch: " " };
    return { ...spec, name };
  }
  if ([...last].length === 1) {
    const ch = spec.ctrl || spec.alt ? last.toLowerCase() : last;
    return { ...spec, ch };
  }
  return `"${text}": unknown key "${last}"; keys are a single character or ${KEY_NAMES.join(", ")}`;
}

/** The canonical spelling of a key, to compare two keys and to show them. */
export function keyLabel(k: KeySpec): string {
  const mods = MODIFIERS.filter((m) => k[m]);
  const base = k.name === "char" ? (k.ch === " " ? "space" : (k.ch ?? "")) : k.name;
  return [...mods, base].join("+");
}

const Key = z.string().superRefine((v, ctx) => {
  const k = parseKey(v);
  if (typeof k === "string") ctx.addIssue({ code: "custom", message: k });
});

export const KeybindingsFile = z
  .strictObject({
    $schema: z.string().optional(),
    $comment: z.string().optional(),
    ...(Object.fromEntries(
      KEY_ACTION_NAMES.map((a) => [a, z.union([Key, z.array(Key)]).optional()]),
    ) as Record<KeyAction, z.ZodOptional<z.ZodUnion<[typeof Key, z.ZodArray<typeof Key>]>>>),
  })
  .superRefine((file, ctx) => {
    // Two actions on one key: whichever ran would surprise the user. Approval answers only apply at a
    // question, where typing is not editing, so they are compared among themselves and with the rest.
    const seen = new Map<string, KeyAction>();
    for (const action of KEY_ACTION_NAMES) {
      const given = file[action];
      const keys =
        given === undefined ? KEY_ACTIONS[action].keys : typeof given === "string" ? [given] : given;
      for (const key of keys) {
        const k = parseKey(key);
        if (typeof k === "string") continue;
        // A plain character types itself while editing: only the approval answers may take one.
        if (!action.startsWith("approve-") && k.name === "char" && !k.ctrl && !k.alt && given !== undefined) {
          ctx.addIssue({
            code: "custom",
            path: [action],
            message: `"${key}" is a character you type; bind ${action} to a key with ctrl or alt, or a named key`,
          });
          continue;
        }
        const label = keyLabel(k);
        const other = seen.get(label);
        if (other && other !== action) {
          const mine = file[action] !== undefined;
          ctx.addIssue({
            code: "custom",
            path: [mine ? action : other],
            message: `${label} is bound to both ${other} and ${action}; give one of them another key${
              file[other] === undefined || file[action] === undefined
                ? " (the other is a default: list it to move it)"
                : ""
            }`,
          });
        } else seen.set(label, action);
      }
    }
  });

export type KeybindingsFile = z.infer<typeof KeybindingsFile>;
