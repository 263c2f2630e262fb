/**
 * `review-gate schema [kind] [--dialect claude|codex|vibe]`: print a canonical schema, or exactly
 * what a provider receives (its derived dialect).
 *
 * @module
 */
import { type Command, Option } from "commander";
import { dialectText } from "../answer/dialect.ts";
import type { SchemaDialect } from "../answer/types.ts";
import { type AnswerKind, canonicalSchema, listKinds } from "../kinds/registry.ts";
import { UsageError } from "../base/errors.ts";
import configSchema from "../../schemas/config.schema.json" with { type: "json" };
import type { CliDeps } from "./deps.ts";

/** Register `schema` on the program. */
export function registerSchema(program: Command, deps: CliDeps): void {
  const kinds = [...listKinds(), "config"];
  program.command("schema")
    .description("Print a JSON Schema: an answer kind (as each provider receives it) or the config")
    .argument("[kind]", `one of ${kinds.join(", ")}`, "review")
    .addOption(
      new Option("--dialect <provider>", "print the dialect this provider receives").choices([
        "claude",
        "codex",
        "vibe",
      ]),
    )
    .action((kind: string, flags: { dialect?: SchemaDialect }) => {
      if (!kinds.includes(kind)) {
        throw new UsageError(`Unknown schema "${kind}": choose one of ${kinds.join(", ")}`);
      }
      if (kind === "config") {
        if (flags.dialect) {
          throw new UsageError(`The config schema has no provider dialect: drop --dialect`);
        }
        deps.stdout.write(JSON.stringify(configSchema, null, 2) + "\n");
        return;
      }
      const schema = canonicalSchema(kind as AnswerKind);
      const text = flags.dialect
        ? dialectText(schema, flags.dialect)
        : JSON.stringify(schema, null, 2);
      deps.stdout.write(text.endsWith("\n") ? text : text + "\n");
    });
}
