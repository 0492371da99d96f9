// The terminal the screen draws on: what it writes, its size, and size changes.
export interface TerminalLike {
  write(s: string): void;
  readonly columns: number;
  readonly rows: number;
  /** subscribe to size changes; returns the unsubscribe */
  onResize(cb: () => void): () => void;
}

export function processTerminal(out: NodeJS.WriteStream = process.stdout): TerminalLike {
  const size = (): readonly number[] => {
    try {
      return (out.isTTY && out.getWindowSize?.()) || [];
    } catch {
      return []; // a stream that stopped being a terminal
    }
  };
  return {
    write: (s) => {
      out.write(s);
    },
    // Asked of the terminal itself (one ioctl), not the runtime's copy, which changes only once the
    // SIGWINCH has been handled: a frame drawn in between would be laid out for the old width.
    get columns() {
      return size()[0] || out.columns || 80;
    },
    get rows() {
      return size()[1] || out.rows || 24;
    },
    onResize(cb) {
      out.on("resize", cb);
      return () => {
        out.off("resize", cb);
      };
    },
  };
}
