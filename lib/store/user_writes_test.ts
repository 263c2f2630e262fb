import assert from "node:assert/strict";
import { withState } from "./_test_state.ts";
import { stampUserWrites, writtenByUser } from "./user_writes.ts";

Deno.test("writtenByUser() matches exactly the text (or the removal) the user's command recorded", async () => {
  await withState(async (state) => {
    assert.equal(
      await writtenByUser(state, "/r/.review-gate.json", "{}"),
      false,
      "nothing recorded",
    );
    await stampUserWrites(state, [
      { path: "/r/.review-gate.json", text: '{"gates":{}}\n' },
      { path: "/r/.claude/settings.local.json", text: null },
    ]);
    assert.equal(await writtenByUser(state, "/r/.review-gate.json", '{"gates":{}}\n'), true);
    assert.equal(await writtenByUser(state, "/r/.review-gate.json", '{"gates":{"x":1}}\n'), false);
    assert.equal(await writtenByUser(state, "/r/.claude/settings.local.json", null), true);
    assert.equal(await writtenByUser(state, "/r/.claude/settings.local.json", "{}"), false);
    await stampUserWrites(state, [{ path: "/r/.review-gate.json", text: "{}" }]);
    assert.equal(
      await writtenByUser(state, "/r/.review-gate.json", "{}"),
      true,
      "a later write wins",
    );
    assert.equal(
      await writtenByUser(state, "/r/.claude/settings.local.json", null),
      true,
      "others kept",
    );
  });
});
