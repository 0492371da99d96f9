// Images entering the live prompt: a pasted path to an image file, or Ctrl-V (the paste-image action) for
// the clipboard's image, becomes the image's label in the draft. A pasted path that is no image file stays
// the text it was; an image that cannot be attached is one line under the input.
import type { InputEvent } from "../input/keys.ts";
import { consoleImages, IMAGE_EXTENSIONS, pastedPath, readImageFile } from "./attachments.ts";
import { readClipboardImage } from "./clipboard.ts";

export interface ImageInputSide {
  workspace: string;
  /** put text into the draft at the caret */
  insert(text: string): void;
  /** one line under the input ("" clears it) */
  hint(text: string): void;
}

const isPasteImage = (ev: InputEvent) =>
  ev.type === "key" && ev.name === "char" && ev.ctrl && !ev.alt && ev.ch === "v";

export class ImageInput {
  constructor(private readonly side: ImageInputSide) {}

  /** The events the prompt gets for `ev`. */
  filter(ev: InputEvent): InputEvent[] {
    if (isPasteImage(ev)) {
      void this.fromClipboard();
      return [];
    }
    if (ev.type !== "paste") return [ev];
    const path = pastedPath(ev.text, this.side.workspace);
    if (!path || !IMAGE_EXTENSIONS.test(path)) return [ev];
    const bytes = readImageFile(path, ev.text.trim());
    // A path-like paste naming no file is just text (a path the user talks about).
    if (typeof bytes === "string" && bytes.endsWith("no such file")) return [ev];
    const a = typeof bytes === "string" ? bytes : consoleImages.add(bytes, ev.text.trim());
    if (typeof a === "string") {
      this.side.hint(a);
      return [];
    }
    return [{ type: "paste", text: `${a.label} ` }];
  }

  private async fromClipboard(): Promise<void> {
    this.side.hint("reading the clipboard…");
    const bytes = await readClipboardImage();
    const a = typeof bytes === "string" ? bytes : consoleImages.add(bytes, "the clipboard's image");
    if (typeof a === "string") {
      this.side.hint(a);
      return;
    }
    this.side.hint("");
    this.side.insert(`${a.label} `);
  }
}
