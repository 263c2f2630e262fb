import assert from "node:assert/strict";
import { UsageError } from "../base/errors.ts";
import { evalColumns } from "./columns.ts";

Deno.test("evalColumns() makes one column per --providers entry: provider, provider:model, council", () => {
  assert.deepEqual(evalColumns({ providers: "claude, codex:gpt-5:mini ,vibe+claude" }), [
    { label: "claude", layer: { provider: "claude", council: [] } },
    { label: "codex:gpt-5:mini", layer: { provider: "codex", council: [], model: "gpt-5:mini" } },
    { label: "vibe+claude", layer: { provider: "vibe", council: ["vibe", "claude"] } },
  ]);
  assert.deepEqual(evalColumns({ provider: "codex", model: "o3" }), [
    { label: "codex:o3", layer: { provider: "codex", council: [], model: "o3" } },
  ]);
  assert.deepEqual(evalColumns({ providers: "vibe", model: "m" }), [
    { label: "vibe:m", layer: { provider: "vibe", council: [], model: "m" } },
  ]);
  assert.deepEqual(evalColumns({}), [{ layer: {} }], "the config decides");
  assert.deepEqual(evalColumns({ model: "opus" }), [{ layer: { model: "opus" } }]);
});

Deno.test("evalColumns() refuses what it cannot tell apart, naming the entry", async (t) => {
  const bad: [Parameters<typeof evalColumns>[0], RegExp][] = [
    [{ provider: "claude", providers: "codex" }, /Choose --provider or --providers, not both/],
    [{ providers: "claude,gpt" }, /"gpt" is not a provider/],
    [{ providers: "claude,,codex" }, /an entry is empty/],
    [{ providers: "claude,claude" }, /an entry is repeated/],
    [{ providers: "claude+claude" }, /two or three distinct providers/],
    [{ providers: "claude:" }, /the model is empty/],
    [{ providers: "claude,codex", model: "x" }, /give each of --providers its own model/],
    [{ providers: "claude+codex", model: "x" }, /a council takes no model/],
  ];
  for (const [flags, message] of bad) {
    await t.step(JSON.stringify(flags), () => {
      assert.throws(
        () => evalColumns(flags),
        (e) => e instanceof UsageError && message.test(e.message),
      );
    });
  }
});
