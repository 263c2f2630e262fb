import assert from "node:assert/strict";
import { lintCodexSchema } from "./codex_lint.ts";
import reviewSchema from "../../schemas/review.schema.json" with { type: "json" };
import type { JsonSchema } from "./types.ts";

Deno.test("lintCodexSchema() flags minLength in the canonical review schema", () => {
  const problems = lintCodexSchema(reviewSchema as JsonSchema);
  assert.ok(
    problems.some((p) => p.startsWith('/properties/summary: "minLength"')),
    problems.join("\n"),
  );
});

function closed(properties: Record<string, JsonSchema>, extra: JsonSchema = {}): JsonSchema {
  return {
    type: "object",
    additionalProperties: false,
    required: Object.keys(properties),
    properties,
    ...extra,
  };
}

function nested(levels: number): JsonSchema {
  let node: JsonSchema = closed({ leaf: { type: "string" } });
  for (let i = 1; i < levels; i++) node = closed({ child: node });
  return node;
}

const many = (n: number) =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, { type: "string" }]));

const bad: { name: string; schema: JsonSchema; expect: string }[] = [
  { name: "a root anyOf", schema: { anyOf: [closed({})] }, expect: "(root): must not be anyOf" },
  {
    name: "a non-object root",
    schema: { type: "array", items: { type: "string" } },
    expect: '(root): must have "type": "object"',
  },
  {
    name: "an open object",
    schema: closed({ o: { type: "object", properties: {}, required: [] } }),
    expect: '/properties/o: object must have "additionalProperties": false',
  },
  {
    name: "an optional property",
    schema: {
      type: "object",
      additionalProperties: false,
      required: [],
      properties: { a: { type: "string" } },
    },
    expect: '(root): property "a" must be listed in "required"',
  },
  ...[
    "minLength",
    "maxLength",
    "uniqueItems",
    "not",
    "if",
    "allOf",
    "dependentRequired",
    "patternProperties",
    "minProperties",
    "oneOf",
  ]
    .map((keyword) => ({
      name: `"${keyword}"`,
      schema: closed({ a: { type: "string", [keyword]: keyword === "uniqueItems" ? true : 1 } }),
      expect: `/properties/a: "${keyword}" is not supported`,
    })),
  {
    name: "an unsupported format",
    schema: closed({ a: { type: "string", format: "uri" } }),
    expect: '/properties/a: format "uri" is not supported',
  },
  {
    name: "11 levels of nesting",
    schema: nested(11),
    expect: "(root): 11 levels of object nesting, at most 10",
  },
  {
    name: "5001 properties",
    schema: closed(many(5001)),
    expect: "(root): 5001 properties, at most 5000",
  },
  {
    name: "1001 enum values",
    schema: closed({
      e: { type: "string", enum: Array.from({ length: 1001 }, (_, i) => `v${i}`) },
    }),
    expect: "(root): 1001 enum values, at most 1000",
  },
  {
    name: "a problem inside array items",
    schema: closed({
      list: { type: "array", items: { type: "object", properties: { x: { type: "string" } } } },
    }),
    expect: '/properties/list/items: object must have "additionalProperties": false',
  },
];

for (const c of bad) {
  Deno.test(`lintCodexSchema() detects ${c.name}`, () => {
    const problems = lintCodexSchema(c.schema);
    assert.ok(
      problems.some((p) => p.startsWith(c.expect)),
      `expected "${c.expect}" in:\n${problems.join("\n")}`,
    );
  });
}

Deno.test("lintCodexSchema() accepts the limits themselves", () => {
  assert.deepEqual(lintCodexSchema(nested(10)), []);
  assert.deepEqual(lintCodexSchema(closed(many(100), { description: "d" })), []);
  assert.deepEqual(
    lintCodexSchema(closed({ d: { type: "string", format: "date-time", pattern: "\\S" } })),
    [],
  );
});
