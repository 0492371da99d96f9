// Generates JSON Schemas for every user-facing file from the zod schemas (the single source of truth), so
// editors can validate config files. Output: schemas/*.json, shipped with releases.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { AuthFile, CONFIG_FILES } from "../src/config/schemas.ts";
import { Manifest } from "../src/manifest/schema.ts";

const out = join(import.meta.dirname, "..", "schemas");
mkdirSync(out, { recursive: true });
const all: Record<string, z.ZodType> = { ...CONFIG_FILES, "auth.json": AuthFile, "manifest.json": Manifest };
for (const [name, schema] of Object.entries(all)) {
  const json = z.toJSONSchema(schema, { target: "draft-2020-12", io: "input" }) as Record<string, unknown>;
  json.$id = `https://i-agent.dev/schemas/${name}`;
  json.title = `i ${name}`;
  writeFileSync(join(out, name), `${JSON.stringify(json, null, 2)}\n`);
}
console.log(`wrote ${Object.keys(all).length} schemas to schemas/`);
