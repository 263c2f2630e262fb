import assert from "node:assert/strict";
import schema from "../../schemas/config.schema.json" with { type: "json" };
import { DEFAULT_CONFIG, mergeLayers, parseConfigText } from "./config.ts";
import { CONFIG_SCHEMA_ID, initConfigText } from "./init_text.ts";
import { PROVIDER_NAMES } from "../providers/registry.ts";

/** The text with every commented setting line uncommented (explanations stay comments). */
function uncommented(text: string): string {
  return text.split("\n").map((line) => line.replace(/^(\s*)\/\/ (\s*["}])/, "$1$2")).join("\n");
}

Deno.test("init's config loads, validates and names the schema's $id", async () => {
  const text = initConfigText();
  const layer = await parseConfigText(text, ".review-gate.json");
  assert.equal(layer.$schema, CONFIG_SCHEMA_ID);
  assert.equal(CONFIG_SCHEMA_ID, schema.$id);
  assert.equal(layer.provider, DEFAULT_CONFIG.provider);
  assert.deepEqual(mergeLayers(DEFAULT_CONFIG, layer), DEFAULT_CONFIG);
  const codex = await parseConfigText(initConfigText("codex"), ".review-gate.json");
  assert.equal(codex.provider, "codex");
});

Deno.test("init's commented settings, uncommented as they stand, validate and are the defaults", async () => {
  const text = uncommented(initConfigText());
  assert.notEqual(text, initConfigText(), "there are commented settings");
  const layer = await parseConfigText(text, ".review-gate.json");
  for (const key of ["fail_on", "min_confidence", "categories", "max_calls", "jobs", "gates"]) {
    assert.ok(key in layer, `${key} is among the commented settings`);
  }
  // model and instructions are examples, not defaults
  const { model: _model, instructions: _instructions, ...rest } = layer;
  assert.deepEqual(mergeLayers(DEFAULT_CONFIG, rest), DEFAULT_CONFIG);
});

Deno.test("init's provider comment lists every registered provider", () => {
  const lines = initConfigText().split("\n");
  const at = lines.findIndex((l) => l.includes("which coding-agent CLI"));
  assert.equal(lines[at + 1], `  // this order) | ${PROVIDER_NAMES.join(" | ")}`);
  assert.match(lines[at], /"auto" \(the first installed and signed in, in$/);
});
