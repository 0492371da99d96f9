// The safety net's slash commands as the registry lists them (run by safety-commands.ts).

export const SAFETY_COMMANDS: readonly { name: string; args?: string; help: string }[] = [
  {
    name: "undo",
    help: "put the files and the conversation back as they were before your last message (it returns to the input box)",
  },
  { name: "redo", help: "take back the last /undo or /rewind" },
  {
    name: "rewind",
    args: "[N] [MODE]",
    help: "go back to before one of your messages (a picker, or the Nth); MODE: code, conversation or both (default)",
  },
  {
    name: "fork",
    args: "[N]",
    help: "continue in a new session with this conversation (up to before your Nth message); this one stays",
  },
  {
    name: "export",
    args: "[FILE]",
    help: "save the conversation as .md, .html or .json (default: a new .md here)",
  },
];
