// The key decoder: the byte sequences real terminals send, split anywhere, and bracketed paste.
import { describe, expect, test } from "bun:test";
import { type InputEvent, KeyDecoder } from "../../../src/console/input/keys.ts";

function decode(...chunks: string[]): InputEvent[] {
  const d = new KeyDecoder();
  const out = chunks.flatMap((c) => d.push(c));
  return [...out, ...d.flush()];
}

const short = (evs: InputEvent[]) =>
  evs.map((e) =>
    e.type === "paste"
      ? `paste:${JSON.stringify(e.text)}`
      : `${e.ctrl ? "C-" : ""}${e.alt ? "M-" : ""}${e.shift ? "S-" : ""}${e.name}${e.ch ? `:${e.ch}` : ""}`,
  );

describe("keys", () => {
  test("printable text, UTF-8 split across chunks, emoji", () => {
    const bytes = new TextEncoder().encode("é😀");
    const d = new KeyDecoder();
    const out = [
      ...d.push(bytes.subarray(0, 1)),
      ...d.push(bytes.subarray(1, 3)),
      ...d.push(bytes.subarray(3)),
    ];
    expect(short(out)).toEqual(["char:é", "char:😀"]);
    expect(short(decode("ab"))).toEqual(["char:a", "char:b"]);
  });

  test("control keys", () => {
    expect(short(decode("\x01\x05\x0b\x15\x17\x03\x04\x12\r\t\x7f"))).toEqual([
      "C-char:a",
      "C-char:e",
      "C-char:k",
      "C-char:u",
      "C-char:w",
      "C-char:c",
      "C-char:d",
      "C-char:r",
      "enter",
      "tab",
      "backspace",
    ]);
  });

  test("Shift+Enter as terminals send it: CSI-u, modifyOtherKeys, ESC CR, LF", () => {
    expect(short(decode("\x1b[13;2u"))).toEqual(["S-enter"]);
    expect(short(decode("\x1b[27;2;13~"))).toEqual(["S-enter"]);
    expect(short(decode("\x1b\r"))).toEqual(["M-enter"]);
    expect(short(decode("\n"))).toEqual(["C-char:j"]);
  });

  test("cursor keys with modifiers, SS3 and ~ keys", () => {
    expect(short(decode("\x1b[A\x1b[B\x1b[C\x1b[D\x1bOH\x1bOF"))).toEqual([
      "up",
      "down",
      "right",
      "left",
      "home",
      "end",
    ]);
    expect(short(decode("\x1b[1;5C\x1b[1;5D\x1b[1;3C"))).toEqual(["C-right", "C-left", "M-right"]);
    expect(short(decode("\x1b[3~\x1b[1~\x1b[4~\x1b[5~\x1b[3;5~"))).toEqual([
      "delete",
      "home",
      "end",
      "pageup",
      "C-delete",
    ]);
    expect(short(decode("\x1b[Z"))).toEqual(["S-tab"]);
  });

  test("Alt as an ESC prefix; a lone ESC only once no more bytes follow", () => {
    expect(short(decode("\x1bb\x1bf\x1b\x7f"))).toEqual(["M-char:b", "M-char:f", "M-backspace"]);
    const d = new KeyDecoder();
    expect(d.push("\x1b")).toEqual([]);
    expect(d.pending).toBe(true);
    expect(short(d.flush())).toEqual(["escape"]);
    // a sequence split between two reads is still one key
    expect(short(decode("\x1b[1;", "5C"))).toEqual(["C-right"]);
  });

  test("bracketed paste is one event, whatever it contains, split anywhere; CRLF becomes LF", () => {
    expect(short(decode("\x1b[200~line one\r\nline two\rline three\x1b[201~"))).toEqual([
      'paste:"line one\\nline two\\nline three"',
    ]);
    expect(short(decode("x\x1b[20", "0~a\x1b[A\x03b\x1b[2", "01~y"))).toEqual([
      "char:x",
      'paste:"a\\u001b[A\\u0003b"',
      "char:y",
    ]);
  });
});
