import assert from "node:assert/strict";
import { hasPromptLimitEntry, PROMPT_LIMITS } from "./limits.ts";
import { getProvider, PROVIDER_NAMES } from "./registry.ts";

Deno.test("PROMPT_LIMITS names every provider and agrees with each adapter's maxPromptBytes", async () => {
  assert.deepEqual(Object.keys(PROMPT_LIMITS), [...PROVIDER_NAMES]);
  for (const name of PROVIDER_NAMES) {
    const adapter = await getProvider(name);
    assert.equal(adapter.name, name);
    assert.equal(adapter.capabilities.maxPromptBytes ?? null, PROMPT_LIMITS[name], name);
  }
});

Deno.test("hasPromptLimitEntry() accepts provider names only", () => {
  for (const name of PROVIDER_NAMES) assert.equal(hasPromptLimitEntry(name), true, name);
  for (const name of ["", "gpt", "toString", "__proto__", "Claude"]) {
    assert.equal(hasPromptLimitEntry(name), false, name);
  }
});
