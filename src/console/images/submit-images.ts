// At submit: the images that go with a message. Labels pasted into the draft name attached images; an
// `@shot.png` mention, and a typed absolute (or ~) path to an image file when the model takes images,
// attach theirs, replaced by their labels so the model reads which image is which. A model whose table entry does not say it takes images gets none: the
// message is not sent and one line says why (it stays in the input history for Up).
import type { Content, ImagePart } from "../../contract/history.ts";
import { type Attached, consoleImages, IMAGE_EXTENSIONS, pastedPath, readImageFile } from "./attachments.ts";

export type Prepared = { text: string; images: ImagePart[]; notes: string[] } | { refused: string };

/** `@path` and bare path tokens that end in an image extension. */
const PATH_TOKEN = /(^|\s)(@?)((?:~|\.{1,2})?[^\s@]*\.(?:png|jpe?g|gif|webp))(?=\s|$|[,;:!?)])/gi;

export function prepareImages(
  text: string,
  workspace: string,
  model: { name: string; images?: string | undefined },
): Prepared {
  const notes: string[] = [];
  let problem: string | undefined;
  const vision = model.images === "keep";
  const replaced = text.replace(PATH_TOKEN, (whole, lead: string, at: string, raw: string) => {
    if (problem) return whole;
    // A bare path is attached only when it is plainly a file of this machine (absolute, ~) and the model
    // takes images: "fix logo.png" or "see src/a.png" is talk about a file, not a request to send it.
    if (!at && (!vision || !/^(~\/|\/|file:\/\/)/.test(raw))) return whole;
    const path = pastedPath(raw, workspace);
    if (!path || !IMAGE_EXTENSIONS.test(path)) return whole;
    const bytes = readImageFile(path, raw);
    if (typeof bytes === "string") {
      // A typed name that is no file is just words; a mention that names nothing is said so by the mention.
      if (!bytes.endsWith("no such file")) problem = bytes;
      else if (at) notes.push(`@${raw}: no such file; not attached`);
      return whole;
    }
    const a = consoleImages.add(bytes, raw);
    if (typeof a === "string") {
      problem = a;
      return whole;
    }
    notes.push(`attached ${a.label} (${raw})`);
    return `${lead}${a.label}`;
  });
  if (problem) return { refused: `${problem}; nothing was sent (Up brings the message back)` };
  const attached: Attached[] = consoleImages.inText(replaced);
  if (attached.length > 0 && model.images !== "keep") {
    const says = model.images ? `images: ${model.images}` : "nothing about images";
    return {
      refused: `${model.name} takes no images (its model table entry says ${says}); nothing was sent: switch with /model, or set "images":"keep" for it in config.json models`,
    };
  }
  return { text: replaced, images: attached.map((a) => a.part), notes };
}

/** The message content: the text, then the images. */
export function withImages(text: string, images: ImagePart[]): Content {
  return images.length === 0 ? text : [{ type: "text", text }, ...images];
}
