import assert from "node:assert/strict";
import configSchema from "../../schemas/config.schema.json" with { type: "json" };
import reviewSchema from "../../schemas/review.schema.json" with { type: "json" };
import complianceSchema from "../../schemas/compliance.schema.json" with { type: "json" };
import { compileSchema, validateValue } from "./validate.ts";
import type { JsonSchema } from "./types.ts";

const SCHEMAS: Record<string, JsonSchema> = {
  review: reviewSchema,
  compliance: complianceSchema,
  config: configSchema,
};

async function fixture(name: string): Promise<unknown> {
  return JSON.parse(
    await Deno.readTextFile(new URL(`../../fixtures/answers/${name}`, import.meta.url)),
  );
}

Deno.test("compileSchema() compiles every schema in schemas/ in strict mode", async () => {
  const dir = new URL("../../schemas/", import.meta.url);
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (!entry.name.endsWith(".schema.json")) continue;
    names.push(entry.name);
    const schema = JSON.parse(await Deno.readTextFile(new URL(entry.name, dir)));
    assert.equal(schema.$schema, "https://json-schema.org/draft/2020-12/schema", entry.name);
    assert.equal(schema.$id, `https://review-gate.dev/schemas/${entry.name}`, entry.name);
    assert.equal(typeof compileSchema(schema), "function", entry.name);
  }
  assert.deepEqual(names.sort(), [
    "acks.schema.json",
    "compliance.schema.json",
    "config.schema.json",
    "eval_case.schema.json",
    "eval_report.schema.json",
    "review.schema.json",
    "shard.schema.json",
  ]);
});

for (const [name, schema] of Object.entries(SCHEMAS)) {
  Deno.test(`validateValue() accepts fixtures/answers/${name}.good.json`, async () => {
    assert.deepEqual(validateValue(schema, await fixture(`${name}.good.json`)), []);
  });
  Deno.test(`validateValue() refuses fixtures/answers/${name}.bad.json`, async () => {
    assert.ok(validateValue(schema, await fixture(`${name}.bad.json`)).length > 0);
  });
}

Deno.test("validateValue() reports every config problem with its path", async () => {
  const refusal = validateValue(configSchema, await fixture("config.bad.json"));
  const paths = refusal.map((r) => r.path).sort();
  assert.deepEqual(paths, [
    "",
    "/budgets/file_bytes",
    "/gates/claude_stop/max_blocks",
    "/gates/pre_push/on_error",
    "/max_turns",
    "/min_confidence",
    "/provider",
    "/timeout_seconds",
  ]);
  assert.ok(refusal.some((r) => r.problem === 'unexpected key "colour"'));
  assert.ok(
    refusal.some((r) =>
      r.problem ===
        'must be one of "auto", "claude", "codex", "gemini", "qwen", "copilot", "vibe", "opencode", got "bard"'
    ),
  );
});

Deno.test("validateValue() accepts an empty config (every key optional)", () => {
  assert.deepEqual(validateValue(configSchema, {}), []);
});

Deno.test("every property of every schema has a description", () => {
  function walk(node: unknown, at: string): string[] {
    if (node === null || typeof node !== "object") return [];
    const missing: string[] = [];
    const props = (node as JsonSchema).properties as Record<string, JsonSchema> | undefined;
    for (const [key, child] of Object.entries(props ?? {})) {
      if (typeof child.description !== "string" || child.description === "") {
        missing.push(`${at}/${key}`);
      }
      missing.push(...walk(child, `${at}/${key}`));
    }
    const items = (node as JsonSchema).items;
    if (items) missing.push(...walk(items, `${at}/items`));
    return missing;
  }
  for (const [name, schema] of Object.entries(SCHEMAS)) assert.deepEqual(walk(schema, name), []);
});
