/**
 * `review-gate schema [kind] [--dialect <provider>]`: print a canonical schema, or exactly what a
 * provider receives (the dialect its folder's `meta.ts` names, lib/providers/registry.ts); also the
 * config and acks file schemas, the eval's case file and record (docs/eval.md), and the shard
 * result.
 *
 * @module
 */
import { KIND_NAMES, type KindName } from "../kinds/names.ts";
import { UsageError } from "../base/errors.ts";
import { PROVIDER_NAMES, providerMeta, type ProviderName } from "../providers/registry.ts";
import { type CliContext, type CommandRoutes, defineCommand } from "./command.ts";

/** Schemas that are not answer kinds: printed as they are, no provider dialect; loaded when asked. */
const OTHER_SCHEMAS: Record<string, () => Promise<{ default: unknown }>> = {
  config: () => import("../../schemas/config.schema.json", { with: { type: "json" } }),
  acks: () => import("../../schemas/acks.schema.json", { with: { type: "json" } }),
  "eval-case": () => import("../../schemas/eval_case.schema.json", { with: { type: "json" } }),
  "eval-report": () => import("../../schemas/eval_report.schema.json", { with: { type: "json" } }),
  shard: () => import("../../schemas/shard.schema.json", { with: { type: "json" } }),
};

const KINDS = [...KIND_NAMES, ...Object.keys(OTHER_SCHEMAS)];

/** `schema`. */
export const schemaRoutes: CommandRoutes = {
  schema: defineCommand({
    docs: {
      brief:
        "Print a JSON Schema: an answer kind (as each provider receives it), the config, the acks file, an eval case, the eval record or a shard result",
    },
    parameters: {
      flags: {
        dialect: {
          kind: "enum",
          values: PROVIDER_NAMES,
          optional: true,
          placeholder: "provider",
          brief: "print the dialect this provider receives",
        },
      },
      positional: {
        kind: "tuple",
        parameters: [{
          placeholder: "kind",
          brief: `one of ${KINDS.join(", ")}`,
          parse: String,
          default: "review",
        }],
      },
    },
    async func(this: CliContext, flags: { dialect?: ProviderName }, kind: string) {
      const { deps } = this;
      if (!KINDS.includes(kind)) {
        throw new UsageError(`Unknown schema "${kind}": choose one of ${KINDS.join(", ")}`);
      }
      if (Object.hasOwn(OTHER_SCHEMAS, kind)) {
        if (flags.dialect) {
          throw new UsageError(`The ${kind} schema has no provider dialect: drop --dialect`);
        }
        const schema = (await OTHER_SCHEMAS[kind]()).default;
        deps.stdout.write(JSON.stringify(schema, null, 2) + "\n");
        return;
      }
      const { canonicalSchema } = await import("../kinds/registry.ts");
      const schema = await canonicalSchema(kind as KindName);
      const text = flags.dialect
        ? (await import("../answer/dialect.ts")).dialectText(
          schema,
          providerMeta(flags.dialect).dialect,
        )
        : JSON.stringify(schema, null, 2);
      deps.stdout.write(text.endsWith("\n") ? text : text + "\n");
    },
  }),
};
