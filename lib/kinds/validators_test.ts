import assert from "node:assert/strict";
import {
  answerValidatorFile,
  GENERATED_DIR,
  generatedValidators,
} from "../../scripts/gen_validators.ts";
import { getKind, listKinds } from "./registry.ts";
import { refusalsOf } from "../answer/ajv_refusal.ts";
import { validateValue } from "../answer/validate.ts";

/** A minimal input for each kind's decoder (compliance needs a plan). */
const INPUTS: Record<string, unknown> = {
  compliance: { path: "PLAN.md", sha256: "0".repeat(64), items: [{ id: "1", text: "Do it" }] },
};

async function fixture(name: string): Promise<unknown> {
  const url = new URL(`../../fixtures/answers/${name}`, import.meta.url);
  return JSON.parse(await Deno.readTextFile(url));
}

Deno.test("every generated validator is up to date (deno task gen), and none is left over", async () => {
  const wanted = await generatedValidators();
  for (const kind of listKinds()) {
    assert.ok(wanted.some((v) => v.file === answerValidatorFile(kind)), `no validator for ${kind}`);
  }
  for (const validator of wanted) {
    const path = new URL(validator.file, GENERATED_DIR);
    const text = await Deno.readTextFile(path).catch(() => null);
    assert.ok(text !== null, `lib/generated/${validator.file} is missing: run deno task gen`);
    assert.ok(
      text === validator.source(),
      `lib/generated/${validator.file} is stale: deno task gen`,
    );
  }
  const present: string[] = [];
  for await (const entry of Deno.readDir(GENERATED_DIR)) present.push(entry.name);
  assert.deepEqual(present.sort(), wanted.map((v) => v.file).sort(), "left-over generated files");
});

Deno.test("every kind's decoder validates with its generated validator, exactly as ajv does", async () => {
  for (const name of listKinds()) {
    const kind = await getKind(name);
    const decoder = kind.decoder(INPUTS[name]);
    assert.equal(decoder.schema, kind.schema, `${name}: the decoder's schema is the kind's`);
    assert.ok(
      decoder.loadValidator,
      `${name}: no generated validator (a schema compiled at run time)`,
    );
    const validate = await decoder.loadValidator();
    const generated = await import(`../generated/${answerValidatorFile(name)}`);
    assert.equal(validate, generated.default, `${name}: not its own generated validator`);
    for (const which of ["good", "bad"]) {
      const value = await fixture(`${name}.${which}.json`);
      const refusals = refusalsOf(validate, value);
      assert.deepEqual(refusals, validateValue(kind.schema, value), `${name}.${which}.json`);
      assert.equal(refusals.length === 0, which === "good", `${name}.${which}.json`);
    }
  }
});
