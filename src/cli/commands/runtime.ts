// `i --runtime manifest PROFILE`: print the manifest generated from profile + plugins.json + bindings.json.
import { loadBindingsFile, loadPluginsFile } from "../../config/load.ts";
import { configDir, refuseBadDirs } from "../../config/paths.ts";
import { UserError } from "../../contract/errors.ts";
import { PROFILE_NAMES, profileModules } from "../../contract/profiles.ts";
import { generateManifest } from "../../manifest/generate.ts";
import { defineSubcommand } from "../command.ts";

export const command = defineSubcommand(
  {
    name: "i --runtime",
    description: "Print runtime documents: `i --runtime manifest PROFILE` prints the generated manifest",
    args: {
      what: { type: "positional", description: "what to print: manifest", required: true },
      profile: {
        type: "positional",
        description: "profile name (default: plugins.json profile, else standard)",
        required: false,
      },
    },
  },
  async (args) => {
    if (args.what !== "manifest") {
      throw new UserError(
        `i --runtime: unknown document "${args.what}"; use \`i --runtime manifest PROFILE\``,
      );
    }
    if (args.profile && !profileModules(args.profile))
      throw new UserError(
        `i --runtime: unknown profile "${args.profile}"; use one of: ${PROFILE_NAMES.join(", ")}`,
      );
    // The manifest names config_dir as its modules' working directory: it must be able to be one.
    refuseBadDirs(["I_CONFIG_DIR"]);
    const dir = configDir();
    const manifest = generateManifest({
      profile: args.profile || undefined,
      configDir: dir,
      plugins: loadPluginsFile(dir),
      bindings: loadBindingsFile(dir),
    });
    process.stdout.write(`${JSON.stringify(manifest, null, 2)}\n`);
    return 0;
  },
);
