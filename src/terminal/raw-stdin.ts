// The terminal's input as a one-key question or a probe reads it, raw, before a line editor takes over.
export interface RawStdin {
  isTTY?: boolean;
  setRawMode?(mode: boolean): unknown;
  on(event: "data", cb: (chunk: Buffer) => void): unknown;
  off(event: "data", cb: (chunk: Buffer) => void): unknown;
  resume(): unknown;
  pause(): unknown;
  unshift?(chunk: Buffer): unknown;
}
