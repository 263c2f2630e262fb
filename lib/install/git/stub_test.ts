import assert from "node:assert/strict";
import {
  addHuskyLine,
  HUSKY_CREATED_LINE,
  isManaged,
  removeHuskyLines,
  renderHuskyLine,
  renderPrePushStub,
} from "./stub.ts";
import { assertShellcheckClean } from "../../git/_testing.ts";

const CMD = "'/opt/it'\\''s here/review-gate'";

Deno.test("renderPrePushStub() output passes shellcheck in both shapes", async () => {
  const plain = renderPrePushStub(CMD);
  const chained = renderPrePushStub(CMD, { chained: true });
  for (const text of [plain, chained]) {
    assert.ok(text.startsWith("#!/bin/sh\n"));
    assert.ok(isManaged(text));
    assert.ok(!text.includes("{{"));
  }
  await assertShellcheckClean(plain);
  await assertShellcheckClean(chained);
  await assertShellcheckClean(`#!/bin/sh\n${renderHuskyLine(CMD)}\n`);
});

Deno.test("addHuskyLine() and removeHuskyLines() round-trip byte for byte", async (t) => {
  const line = renderHuskyLine(CMD);
  for (const before of ["npm test\n", "npm test", "", "#!/bin/sh\n\nnpx lint-staged\n\n"]) {
    await t.step(JSON.stringify(before), () => {
      const added = addHuskyLine(before, line);
      assert.equal(addHuskyLine(added, line), added, "idempotent");
      const { text, deleteFile, removed } = removeHuskyLines(added);
      assert.equal(removed, 1);
      assert.equal(deleteFile, false);
      assert.equal(text, before);
    });
  }
  await t.step("created file", () => {
    const created = addHuskyLine(null, line);
    assert.ok(created.includes(HUSKY_CREATED_LINE));
    assert.equal(removeHuskyLines(created).deleteFile, true);
    const edited = created + "npm test\n";
    assert.equal(
      removeHuskyLines(edited).deleteFile,
      false,
      "user lines added later keep the file",
    );
  });
});
