// The manifest: per hook event and per tool, the owning module and the binding that runs it.
import { z } from "zod";
import { PROTOCOL_VERSION, ToolDecl } from "./protocol.ts";
import { ModuleName } from "./registry.ts";

export const BindingRef = z.lazy(() =>
  z.strictObject({
    module: ModuleName,
    exec: z.array(z.string().min(1)).min(1),
    cwd: z.string().min(1),
    /** true when the module runs the built-in implementation */
    builtin: z.boolean(),
  }),
);

export const ManifestModule = z.lazy(() =>
  z.strictObject({
    name: ModuleName,
    builtin: z.boolean(),
    exec: z.array(z.string().min(1)).min(1),
    cwd: z.string().min(1),
    hooks: z.array(z.string()),
    tools: z.array(ToolDecl),
  }),
);

export const Manifest = z.lazy(() =>
  z.strictObject({
    $schema: z.string().optional(),
    protocol: z.literal(PROTOCOL_VERSION),
    profile: z.string(),
    config_dir: z.string(),
    /** modules in pipeline order */
    modules: z.array(ManifestModule),
    /** event → the modules that handle it, called in this order as a pipeline */
    hooks: z.record(z.string(), z.array(BindingRef)),
    /** tool name → the module that serves it, with its public declaration */
    tools: z.record(
      z.string(),
      BindingRef.unwrap().extend({
        description: z.string(),
        input_schema: z.record(z.string(), z.unknown()),
      }),
    ),
  }),
);

export type BindingRef = z.infer<typeof BindingRef>;
export type ManifestModule = z.infer<typeof ManifestModule>;
export type Manifest = z.infer<typeof Manifest>;
