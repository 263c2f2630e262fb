/**
 * One source of truth for the config: the {@linkcode Config} type, {@linkcode DEFAULT_CONFIG} and
 * `schemas/config.schema.json` are kept by hand, so these tests hold them to each other — the
 * defaults validate against the schema (compiled with ajv as scripts/gen_validators.ts compiles it,
 * and through the generated validator the product runs), every schema property is a key of the
 * type and every key of the type a schema property (checked by the compiler), and every schema
 * `default` is the default the code applies, while a property without one is absent from the
 * defaults (walked at run time).
 *
 * @module
 */
import assert from "node:assert/strict";
import { Ajv2020 } from "ajv/dist/2020.js";
import schema from "../../schemas/config.schema.json" with { type: "json" };
import { type Config, DEFAULT_CONFIG } from "./config.ts";
import { configProblems } from "./validate.ts";
import { AUTO_PROVIDER, PROVIDER_NAMES, PROVIDER_SETTINGS } from "../providers/registry.ts";

/** A schema node as the walk reads it. */
interface SchemaNode {
  type?: string | string[];
  properties?: Record<string, SchemaNode>;
  default?: unknown;
}

/** Dotted key paths of a schema's nested `properties` (objects only; array items are leaves). */
type SchemaPaths<S> = S extends { properties: infer P } ? {
    [K in keyof P & string]: K | `${K}.${SchemaPaths<P[K]>}`;
  }[keyof P & string]
  : never;

/** Dotted key paths of a type's nested object keys (arrays and primitives are leaves). */
type TypePaths<T> = T extends readonly unknown[] ? never
  : T extends object ? {
      [K in keyof T & string]-?: K | `${K}.${TypePaths<NonNullable<T[K]>>}`;
    }[keyof T & string]
  : never;

/** `true` only when A and B are the same set of paths (each missing one shows in the error). */
type Same<A, B> = [Exclude<A, B>, Exclude<B, A>] extends [never, never] ? true
  : { onlyInFirst: Exclude<A, B>; onlyInSecond: Exclude<B, A> };

// `$schema` is the file's pointer at this schema, not a setting.
const typeMatchesSchema: Same<TypePaths<Config>, Exclude<SchemaPaths<typeof schema>, "$schema">> =
  true;

/** `value` at a dotted path, or undefined when a step is missing. */
function at(value: unknown, path: readonly string[]): unknown {
  let here = value;
  for (const key of path) {
    if (typeof here !== "object" || here === null || !Object.hasOwn(here, key)) return undefined;
    here = (here as Record<string, unknown>)[key];
  }
  return here;
}

/** Every dotted key path of a plain JSON value's nested objects (arrays are leaves). */
function valuePaths(value: unknown, prefix: string[] = []): string[][] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return [];
  return Object.entries(value).flatMap(([key, child]) => [
    [...prefix, key],
    ...valuePaths(child, [...prefix, key]),
  ]);
}

/** Every dotted property path of a schema's nested `properties`, with its node. */
function schemaPaths(node: SchemaNode, prefix: string[] = []): [string[], SchemaNode][] {
  return Object.entries(node.properties ?? {}).flatMap(([key, child]) => [
    [[...prefix, key], child] as [string[], SchemaNode],
    ...schemaPaths(child, [...prefix, key]),
  ]);
}

Deno.test("the Config type and the config schema have the same keys (checked by the compiler)", () => {
  assert.equal(typeMatchesSchema, true);
});

Deno.test("DEFAULT_CONFIG validates against schemas/config.schema.json, compiled with ajv", async () => {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  const validate = ajv.compile(schema);
  assert.equal(validate(DEFAULT_CONFIG), true, JSON.stringify(validate.errors));
  assert.deepEqual(
    await configProblems(structuredClone(DEFAULT_CONFIG)),
    [],
    "the generated validator",
  );
});

Deno.test("every key of DEFAULT_CONFIG is a property of the config schema", () => {
  const known = new Set(schemaPaths(schema as SchemaNode).map(([path]) => path.join(".")));
  const unknown = valuePaths(DEFAULT_CONFIG).map((path) => path.join("."))
    .filter((path) => !known.has(path));
  assert.deepEqual(unknown, []);
});

Deno.test("every schema default is the code's default; a property without one has none", () => {
  const problems: string[] = [];
  for (const [path, node] of schemaPaths(schema as SchemaNode)) {
    if (path[0] === "$schema") continue;
    const name = path.join(".");
    const value = at(DEFAULT_CONFIG, path);
    if ("default" in node) {
      try {
        assert.deepEqual(value, node.default);
      } catch {
        problems.push(`${name}: schema default ${JSON.stringify(node.default)}, code ${value}`);
      }
    } else if (node.properties === undefined && value !== undefined) {
      problems.push(
        `${name}: the code defaults it to ${JSON.stringify(value)}, the schema says none`,
      );
    }
  }
  assert.deepEqual(problems, []);
});

Deno.test("the walks see the whole schema (a nested gate setting and an optional key)", () => {
  const paths = schemaPaths(schema as SchemaNode).map(([path]) => path.join("."));
  assert.ok(paths.includes("gates.codex_stop.timeout_seconds"));
  assert.ok(paths.includes("budget.usd_per_day"));
  assert.ok(valuePaths(DEFAULT_CONFIG).some((path) => path.join(".") === "budgets.total_bytes"));
});

Deno.test("the schema's provider choices are the registry's (lib/providers/registry.ts)", () => {
  // a provider added to the registry is offered by the config schema (and its generated validator,
  // `deno task gen`) or this fails
  const names = [...PROVIDER_NAMES];
  assert.deepEqual(schema.properties.provider.enum, [...PROVIDER_SETTINGS], "provider");
  // the order "auto" tries, as the description says it
  assert.ok(
    schema.properties.provider.description.includes(`in this order (${names.join(", ")})`),
    schema.properties.provider.description,
  );
  assert.deepEqual(schema.properties.council.items.enum, names, "council.items");
  assert.equal(schema.properties.council.maxItems, names.length, "council.maxItems");
  assert.equal(schema.properties.provider.default, AUTO_PROVIDER);
  assert.ok(!(schema.properties.council.items.enum as string[]).includes(AUTO_PROVIDER));
});
