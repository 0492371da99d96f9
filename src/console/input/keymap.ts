// The keys in force: keybindings.json over the defaults. The prompt itself only knows the default keys, so
// a rebound key is translated into the default key of its action before the prompt sees it, and a
// default key whose action was moved elsewhere does nothing. Without a keybindings.json nothing is
// translated at all: the defaults stay exactly what they always were.
import {
  KEY_ACTION_NAMES,
  KEY_ACTIONS,
  type KeyAction,
  type KeybindingsFile,
  type KeySpec,
  keyLabel,
  parseKey,
} from "../../contract/keybindings.ts";
import type { InputEvent, Key } from "./keys.ts";

const isApproval = (a: KeyAction) => a.startsWith("approve-");

function spec(text: string): KeySpec {
  const k = parseKey(text);
  if (typeof k === "string") throw new Error(k); // the schema has refused it before it gets here
  return k;
}

function keyEvent(k: KeySpec): Key {
  return {
    type: "key",
    name: k.name as Key["name"],
    ...(k.ch !== undefined ? { ch: k.ch } : {}),
    ctrl: k.ctrl,
    alt: k.alt,
    shift: k.shift,
  };
}

/** The label of a key as it arrives (the same spelling keybindings.json uses). */
export function eventLabel(ev: Key): string {
  return keyLabel({
    name: ev.name,
    ...(ev.ch !== undefined ? { ch: ev.ch } : {}),
    ctrl: ev.ctrl,
    alt: ev.alt,
    shift: ev.shift && ev.name !== "char",
  });
}

export class KeyMap {
  /** action → its keys, labels */
  readonly keys: ReadonlyMap<KeyAction, readonly string[]>;
  /** actions keybindings.json sets */
  readonly changed: ReadonlySet<KeyAction>;
  private readonly byKey = new Map<string, KeyAction>();
  private readonly defaults = new Map<string, KeyAction>();

  constructor(file: KeybindingsFile | undefined) {
    const keys = new Map<KeyAction, string[]>();
    const changed = new Set<KeyAction>();
    for (const action of KEY_ACTION_NAMES) {
      const given = file?.[action];
      if (given !== undefined) changed.add(action);
      const list =
        given === undefined ? KEY_ACTIONS[action].keys : typeof given === "string" ? [given] : given;
      keys.set(
        action,
        list.map((k) => keyLabel(spec(k))),
      );
      for (const k of KEY_ACTIONS[action].keys) this.defaults.set(keyLabel(spec(k)), action);
    }
    for (const [action, list] of keys) for (const label of list) this.byKey.set(label, action);
    this.keys = keys;
    this.changed = changed;
  }

  /** Whether anything differs from the defaults (else keys pass through untouched). */
  get custom(): boolean {
    return this.changed.size > 0;
  }

  /**
   * What the prompt receives for `ev`: the default key of the action it is bound to, nothing for a
   * default key that was moved away, or `ev` itself. `asking`: an approval question is open, where the
   * approval answers apply (an answer key replaces the line with the answer and sends it).
   */
  translate(ev: InputEvent, asking: boolean): InputEvent[] {
    if (!this.custom || ev.type === "paste") return [ev];
    const label = eventLabel(ev);
    const bound = this.byKey.get(label);
    if (bound && (asking || !isApproval(bound))) return this.perform(bound);
    const freed = this.defaults.get(label);
    if (freed && (asking || !isApproval(freed)) && this.changed.has(freed)) return [];
    return [ev];
  }

  private perform(action: KeyAction): InputEvent[] {
    const first = spec(KEY_ACTIONS[action].keys[0] as string);
    if (!isApproval(action)) return [keyEvent(first)];
    const ctrl = (ch: string): Key => ({
      type: "key",
      name: "char",
      ch,
      ctrl: true,
      alt: false,
      shift: false,
    });
    return [
      ctrl("e"),
      ctrl("u"),
      keyEvent(first),
      { type: "key", name: "enter", ctrl: false, alt: false, shift: false },
    ];
  }

  /** The map in force, one line per action: keys, what it does, and whether keybindings.json set it. */
  lines(): Array<[string, string]> {
    return KEY_ACTION_NAMES.map((a) => {
      const keys = this.keys.get(a) ?? [];
      const mark = this.changed.has(a) ? " (keybindings.json)" : "";
      return [a, `${keys.length ? keys.join(", ") : "(unbound)"} — ${KEY_ACTIONS[a].help}${mark}`];
    });
  }
}
