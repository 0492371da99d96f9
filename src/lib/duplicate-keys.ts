// JSON.parse keeps the last of two equal keys and says nothing, so a config with "model" twice silently
// uses the second. This scan runs over text JSON.parse has already accepted and reports the first key that
// appears twice in one object, with the path of that object.

/** Index just past the string literal starting at `i` (text[i] === '"'). */
function stringEnd(text: string, i: number): number {
  let j = i + 1;
  while (j < text.length) {
    const c = text.charCodeAt(j);
    if (c === 92 /* \ */) j += 2;
    else if (c === 34 /* " */) return j + 1;
    else j++;
  }
  return j;
}

interface Frame {
  /** keys seen so far, or undefined for an array */
  keys: Set<string> | undefined;
  /** this container's name in its parent, for the error path */
  name: string;
  /** the array index of the next element */
  index: number;
}

function pathOf(stack: readonly Frame[]): string {
  let out = "";
  for (const f of stack.slice(1)) out += f.name.startsWith("[") ? f.name : out ? `.${f.name}` : f.name;
  return out || "(top level)";
}

/** `{ path, key }` of the first duplicated key in valid JSON `text`, or undefined when there is none. */
export function findDuplicateKey(text: string): { path: string; key: string } | undefined {
  const stack: Frame[] = [];
  // The name the next container opened will get in its parent.
  let pending = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    const top = stack[stack.length - 1];
    if (c === "{" || c === "[") {
      if (top && !top.keys) pending = `[${top.index}]`;
      stack.push({ keys: c === "{" ? new Set() : undefined, name: pending, index: 0 });
    } else if (c === "}" || c === "]") {
      stack.pop();
    } else if (c === ",") {
      if (top && !top.keys) top.index++;
    } else if (c === '"') {
      const end = stringEnd(text, i);
      if (top?.keys) {
        // A string directly inside an object is a key exactly when a colon follows it.
        let k = end;
        while (k < text.length && /\s/.test(text[k] as string)) k++;
        if (text[k] === ":") {
          const key = JSON.parse(text.slice(i, end)) as string;
          if (top.keys.has(key)) return { path: pathOf(stack), key };
          top.keys.add(key);
          pending = key;
        }
      }
      i = end - 1;
    }
  }
  return undefined;
}
