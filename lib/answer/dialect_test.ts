import assert from "node:assert/strict";
import { dialectText, schemaDialect, SchemaDialectError } from "./dialect.ts";
import reviewSchema from "../../schemas/review.schema.json" with { type: "json" };
import { type JsonSchema, SCHEMA_DIALECTS } from "./types.ts";

const review = reviewSchema as JsonSchema;

Deno.test("schemaDialect() without-root-ids drops only the root $schema and $id", () => {
  const claude = schemaDialect(review, "without-root-ids");
  assert.equal(claude.$schema, undefined);
  assert.equal(claude.$id, undefined);
  const { $schema: _s, $id: _i, ...rest } = review;
  assert.deepEqual(claude, rest);
});

Deno.test("schemaDialect() openai-strict turns minLength into a \\S pattern and keeps descriptions", () => {
  const codex = schemaDialect(review, "openai-strict");
  const props = codex.properties as Record<string, JsonSchema>;
  assert.equal(codex.$schema, undefined);
  assert.equal(props.summary.pattern, "\\S");
  assert.equal(props.summary.minLength, undefined);
  assert.equal(typeof props.summary.description, "string");
  const finding = (props.findings.items as JsonSchema).properties as Record<string, JsonSchema>;
  assert.equal(finding.file.pattern, "\\S");
  assert.deepEqual(finding.severity.enum, ["critical", "high", "medium", "low"]);
  assert.equal((props.next_steps.items as JsonSchema).pattern, "\\S");
  assert.ok(new RegExp(props.summary.pattern as string).test(" x"));
  assert.ok(!new RegExp(props.summary.pattern as string).test("  "));
});

Deno.test("schemaDialect() openai-strict keeps properties named like keywords and drops other lengths", () => {
  const schema: JsonSchema = {
    type: "object",
    additionalProperties: false,
    required: ["minLength", "code"],
    properties: {
      minLength: { type: "integer" },
      code: { type: "string", minLength: 0, maxLength: 9 },
    },
  };
  const codex = schemaDialect(schema, "openai-strict");
  assert.deepEqual(codex.properties, { minLength: { type: "integer" }, code: { type: "string" } });
});

Deno.test("schemaDialect() openai-strict throws SchemaDialectError for an optional property", () => {
  const schema: JsonSchema = {
    type: "object",
    additionalProperties: false,
    properties: { a: { type: "string" } },
  };
  assert.throws(() => schemaDialect(schema, "openai-strict"), (error: unknown) => {
    assert.ok(error instanceof SchemaDialectError);
    assert.equal(error.problems.length, 1);
    return true;
  });
});

Deno.test("schemaDialect() canonical is the canonical schema, copied", () => {
  const vibe = schemaDialect(review, "canonical");
  assert.deepEqual(vibe, review);
  assert.notEqual(vibe, review);
});

Deno.test("schemaDialect() never changes the canonical schema", () => {
  const before = JSON.stringify(review);
  for (const d of SCHEMA_DIALECTS) schemaDialect(review, d);
  assert.equal(JSON.stringify(review), before);
});

Deno.test("dialectText() gives compact JSON for without-root-ids and indented JSON otherwise", () => {
  const claude = dialectText(review, "without-root-ids");
  assert.ok(!claude.includes("\n"));
  assert.deepEqual(JSON.parse(claude), schemaDialect(review, "without-root-ids"));
  assert.ok(dialectText(review, "openai-strict").includes('\n  "type": "object"'));
  assert.ok(
    dialectText(review, "canonical").includes(
      '"$id": "https://review-gate.dev/schemas/review.schema.json"',
    ),
  );
});
