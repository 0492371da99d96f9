// `${VAR}` and `${VAR:-default}` in config strings, so tokens live in the environment, not in the file.
// An undefined variable without a default is an error naming it: never silently an empty string.

const REF = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

export class UnsetVariable extends Error {
  constructor(readonly variable: string) {
    super(`\${${variable}} is not set; set it in the environment or write \${${variable}:-default}`);
  }
}

/** `text` with every reference replaced from `env`; throws UnsetVariable for one that is unset. */
export function expandVars(text: string, env: Readonly<Record<string, string | undefined>>): string {
  return text.replace(REF, (_m, name: string, fallback: string | undefined) => {
    const v = env[name];
    if (v !== undefined && v !== "") return v;
    if (fallback !== undefined) return fallback;
    if (v !== undefined) return v;
    throw new UnsetVariable(name);
  });
}

/** The variable names `text` refers to. */
export function referencedVars(text: string): string[] {
  return [...text.matchAll(REF)].map((m) => m[1] as string);
}
