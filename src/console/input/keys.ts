// Decodes raw-mode terminal input into keys and pastes. Terminals disagree on how they send modified keys,
// so every common form is read: CSI and SS3 cursor keys with xterm modifier parameters, `~` keys, kitty's
// CSI-u, xterm's modifyOtherKeys (CSI 27;m;code~), ESC-prefixed Alt, and bracketed paste
// (ESC[200~ … ESC[201~), which arrives as one paste however many lines it has.

export type KeyName =
  | "char"
  | "enter"
  | "tab"
  | "backspace"
  | "delete"
  | "escape"
  | "up"
  | "down"
  | "left"
  | "right"
  | "home"
  | "end"
  | "pageup"
  | "pagedown"
  | "insert"
  | "unknown";

export interface Key {
  type: "key";
  name: KeyName;
  /** the character for `char` keys (a letter for Ctrl/Alt combinations, lower case) */
  ch?: string;
  ctrl: boolean;
  alt: boolean;
  shift: boolean;
}

export interface Paste {
  type: "paste";
  text: string;
}

export type InputEvent = Key | Paste;

const ESC = "\u001b";
const PASTE_START = `${ESC}[200~`;
const PASTE_END = `${ESC}[201~`;

function key(name: KeyName, mods: Partial<Pick<Key, "ctrl" | "alt" | "shift" | "ch">> = {}): Key {
  return { type: "key", name, ctrl: false, alt: false, shift: false, ...mods };
}

/** xterm modifier parameter (1 + bits: 1 shift, 2 alt, 4 ctrl; 8 meta counts as alt). */
function mods(param: number | undefined): Pick<Key, "ctrl" | "alt" | "shift"> {
  const m = param && param > 1 ? param - 1 : 0;
  return { shift: (m & 1) !== 0, alt: (m & 2) !== 0 || (m & 8) !== 0, ctrl: (m & 4) !== 0 };
}

const FINAL_KEYS: Record<string, KeyName> = {
  A: "up",
  B: "down",
  C: "right",
  D: "left",
  H: "home",
  F: "end",
  M: "enter",
};

const TILDE_KEYS: Record<number, KeyName> = {
  1: "home",
  2: "insert",
  3: "delete",
  4: "end",
  5: "pageup",
  6: "pagedown",
  7: "home",
  8: "end",
};

/** A key by its Unicode code point (CSI-u and modifyOtherKeys name keys this way). */
function codepointKey(code: number, m: Pick<Key, "ctrl" | "alt" | "shift">): Key {
  if (code === 13) return key("enter", m);
  if (code === 9) return key("tab", m);
  if (code === 27) return key("escape", m);
  if (code === 127 || code === 8) return key("backspace", m);
  const ch = String.fromCodePoint(code);
  return key("char", { ...m, ch: m.ctrl || m.alt ? ch.toLowerCase() : ch });
}

/** One control byte or printable character (not ESC). */
function plainKey(ch: string): Key {
  const c = ch.charCodeAt(0);
  if (ch === "\r") return key("enter");
  // A bare LF is Ctrl-J (some terminals send it for Shift+Enter too): the prompt makes it a new line
  // unless keybindings.json gives ctrl+j to an action, which a key of its own makes possible.
  if (ch === "\n") return key("char", { ctrl: true, ch: "j" });
  if (ch === "\t") return key("tab");
  if (c === 127 || c === 8) return key("backspace");
  if (c === 0) return key("char", { ctrl: true, ch: " " });
  if (c < 32) return key("char", { ctrl: true, ch: String.fromCharCode(c + 96) });
  return key("char", { ch });
}

/** Parses a CSI sequence body (after ESC[) — returns the key, or undefined when unknown. */
function csiKey(params: string, final: string): Key {
  const nums = params.split(";").map((p) => (p === "" ? undefined : Number(p.split(":")[0])));
  if (final === "u") return codepointKey(nums[0] ?? 0, mods(nums[1]));
  if (final === "~") {
    if (nums[0] === 27 && nums[2] !== undefined) return codepointKey(nums[2], mods(nums[1]));
    const name = TILDE_KEYS[nums[0] ?? 0];
    return name ? key(name, mods(nums[1])) : key("unknown");
  }
  if (final === "Z") return key("tab", { shift: true });
  const name = FINAL_KEYS[final];
  return name ? key(name, mods(nums[1])) : key("unknown");
}

export class KeyDecoder {
  private buf = "";
  private paste: string | undefined;
  private readonly decoder = new TextDecoder("utf-8");

  /** True when the input ends in what may be the start of a sequence: call flush() after a short wait. */
  get pending(): boolean {
    return this.buf !== "" && this.paste === undefined;
  }

  push(chunk: Uint8Array | string): InputEvent[] {
    this.buf += typeof chunk === "string" ? chunk : this.decoder.decode(chunk, { stream: true });
    return this.drain(false);
  }

  /** No more bytes came: a lone ESC is the Escape key, an unfinished sequence is dropped as unknown. */
  flush(): InputEvent[] {
    return this.drain(true);
  }

  private drain(final: boolean): InputEvent[] {
    const out: InputEvent[] = [];
    while (this.buf !== "") {
      if (this.paste !== undefined) {
        const end = this.buf.indexOf(PASTE_END);
        if (end === -1) {
          // Keep a tail that may be the start of the end marker.
          const keep = Math.min(this.buf.length, PASTE_END.length - 1);
          this.paste += this.buf.slice(0, this.buf.length - keep);
          this.buf = this.buf.slice(this.buf.length - keep);
          if (!final) break;
          this.paste += this.buf;
          this.buf = "";
          break;
        }
        out.push({ type: "paste", text: normalisePaste(this.paste + this.buf.slice(0, end)) });
        this.paste = undefined;
        this.buf = this.buf.slice(end + PASTE_END.length);
        continue;
      }
      const n = this.one(out, final);
      if (n === 0) break;
      this.buf = this.buf.slice(n);
    }
    return out;
  }

  /** Consumes one event from the front of the buffer; returns how many characters, 0 to wait for more. */
  private one(out: InputEvent[], final: boolean): number {
    const b = this.buf;
    if (b[0] !== ESC) {
      const cp = b.codePointAt(0) ?? 0;
      const ch = String.fromCodePoint(cp);
      out.push(plainKey(ch));
      return ch.length;
    }
    if (b.length === 1) {
      if (!final) return 0;
      out.push(key("escape"));
      return 1;
    }
    if (b.startsWith(PASTE_START)) {
      this.paste = "";
      return PASTE_START.length;
    }
    const second = b[1] as string;
    if (second === "[") {
      // CSI: parameters and intermediates, then one final byte in @..~
      const body = b.slice(2);
      const m = /^([0-9;:<=>?]*)([ -/]*)([@-~])/.exec(body);
      if (!m) {
        if (!final && /^[0-9;:<=>? -/]*$/.test(body)) return 0;
        out.push(key("unknown"));
        return 2;
      }
      out.push(csiKey(m[1] ?? "", m[3] ?? ""));
      return 2 + m[0].length;
    }
    if (second === "O") {
      if (b.length < 3) {
        if (!final) return 0;
        out.push(key("char", { alt: true, ch: "o" }));
        return 2;
      }
      const name = FINAL_KEYS[b[2] as string];
      out.push(name ? key(name) : key("unknown"));
      return 3;
    }
    if (second === ESC) {
      out.push(key("escape"));
      return 1;
    }
    // ESC + key: Alt. ESC CR is Alt+Enter, which several terminals also send for Shift+Enter.
    const rest = plainKey(String.fromCodePoint(b.codePointAt(1) ?? 0));
    out.push({ ...rest, alt: true, ...(rest.ch ? { ch: rest.ch.toLowerCase() } : {}) });
    return 1 + String.fromCodePoint(b.codePointAt(1) ?? 0).length;
  }
}

/** Pasted line endings as the editor keeps them: CRLF and CR become LF. */
function normalisePaste(text: string): string {
  return text.replace(/\r\n?/g, "\n");
}
