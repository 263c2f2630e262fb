import assert from "node:assert/strict";
import { isManaged, isOurStub, renderHookLine, renderPrePushStub } from "./stub.ts";
import { assertShellcheckClean } from "../../git/_testing.ts";

const CMD = "'/opt/it'\\''s here/review-gate'";

Deno.test("renderPrePushStub() output passes shellcheck in both shapes", async () => {
  const plain = renderPrePushStub(CMD);
  const chained = renderPrePushStub(CMD, { chained: true });
  for (const text of [plain, chained]) {
    assert.ok(text.startsWith("#!/bin/sh\n"));
    assert.ok(isManaged(text));
    assert.ok(!text.includes("{{"));
    assert.ok(isOurStub(text));
  }
  assert.equal(isOurStub(`#!/bin/sh\n${renderHookLine(CMD)}\nnpm test\n`), false);
  await assertShellcheckClean(plain);
  await assertShellcheckClean(chained);
  await assertShellcheckClean(`#!/bin/sh\n${renderHookLine(CMD)}\n`);
  await assertShellcheckClean(`#!/bin/sh\n${renderHookLine(CMD, "sh '/opt/rg/hooks/x.sh'")}\n`);
});

Deno.test('the skip record\'s scripts pass shellcheck (README "Skips")', async () => {
  for (const name of ["pre-push-skip.sh", "skip-record.sh", "pre-push-lines.sh"]) {
    const text = await Deno.readTextFile(new URL(`../../../hooks/${name}`, import.meta.url));
    await assertShellcheckClean(text.startsWith("#!") ? text : `#!/bin/sh\n${text}`);
  }
});
