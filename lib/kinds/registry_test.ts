import assert from "node:assert/strict";
import { canonicalSchema, getKind, kindOfRecord, listKinds } from "./registry.ts";
import { KIND_NAMES } from "./names.ts";
import { KIND_CLIS } from "./cli.ts";
import { memoryTree } from "../answer/memory_tree.ts";
import { lintCodexSchema } from "../answer/codex_lint.ts";
import { schemaDialect } from "../answer/dialect.ts";

Deno.test("canonicalSchema() returns the frozen review schema", async () => {
  assert.deepEqual(listKinds(), ["review", "compliance"]);
  const schema = await canonicalSchema("review");
  assert.equal(schema.$id, "https://review-gate.dev/schemas/review.schema.json");
  assert.throws(() => {
    (schema as Record<string, unknown>).title = "x";
  }, TypeError);
});

Deno.test("canonicalSchema() throws on an unknown kind", async () => {
  await assert.rejects(() => canonicalSchema("nope" as "review"), /Unknown answer kind "nope"/);
});

Deno.test("kindOfRecord() reads records without answerKind as reviews and unknown kinds as undefined", async () => {
  assert.equal((await kindOfRecord(undefined))?.name, "review");
  assert.equal((await kindOfRecord("compliance"))?.name, "compliance");
  assert.equal(await kindOfRecord("toString"), undefined);
  assert.equal(await kindOfRecord("later-kind"), undefined);
});

Deno.test("every kind's definition matches its schema file and stores two distinct files", async () => {
  for (const name of listKinds()) {
    const kind = await getKind(name);
    assert.equal(kind.name, name);
    assert.equal(kind.schema.$id, `https://review-gate.dev/schemas/${name}.schema.json`);
    assert.notEqual(kind.files.answer, kind.files.markdown);
    assert.match(kind.files.answer, /\.json$/);
    assert.match(kind.files.markdown, /\.md$/);
  }
});

Deno.test("registry.ts loads no ajv (hook fast paths import it)", async () => {
  const source = await Deno.readTextFile(new URL("./registry.ts", import.meta.url));
  const decoder = await Deno.readTextFile(new URL("../answer/decoder.ts", import.meta.url));
  for (const text of [source, decoder]) {
    assert.ok(!/^import[^;]*["']ajv/m.test(text));
    assert.ok(!/^import[^;]*validate\.ts/m.test(text));
  }
});

Deno.test("memoryTree() answers line counts and deletions", async () => {
  const tree = memoryTree("/r", { "a.ts": 3 }, ["b.ts"]);
  assert.equal(tree.root, "/r");
  assert.equal(await tree.lineCount("a.ts"), 3);
  assert.equal(await tree.lineCount("b.ts"), null);
  assert.ok(tree.isDeleted("b.ts"));
  assert.ok(!tree.isDeleted("a.ts"));
});

Deno.test("lintCodexSchema() finds nothing in the Codex dialect of every answer schema", async () => {
  assert.ok(listKinds().length > 0);
  for (const kind of listKinds()) {
    const schema = await canonicalSchema(kind);
    assert.deepEqual(lintCodexSchema(schemaDialect(schema, "openai-strict")), [], kind);
  }
});

Deno.test("the light name and command-line lists agree with the registry", async () => {
  assert.deepEqual([...KIND_NAMES], listKinds());
  for (const name of listKinds()) assert.equal(KIND_CLIS[name], (await getKind(name)).cli, name);
});
