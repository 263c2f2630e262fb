import assert from "node:assert/strict";
import {
  CREATED_LINE,
  insertOurLine,
  isShellScript,
  ourLineReachable,
  placeOurLine,
  refersToOwnPath,
  removeOurLines,
  shebangInterpreter,
} from "./placement.ts";
import { renderHookLine } from "./stub.ts";

const LINE = renderHookLine("'/opt/review-gate'");
const HUSKY = { husky: true };
const PLAIN = { husky: false };

Deno.test("shebangInterpreter() names the interpreter, env and its options skipped", () => {
  assert.equal(shebangInterpreter("#!/bin/sh"), "sh");
  assert.equal(shebangInterpreter("#! /usr/bin/env bash"), "bash");
  assert.equal(shebangInterpreter("#!/usr/bin/env -S node --no-warnings"), "node");
  assert.equal(shebangInterpreter("#!/bin/sh\r"), "sh");
  assert.equal(shebangInterpreter("npm test"), null);
});

// Every shape whose top level can end before a line appended at the end: ours must come first.
const ENDS_EARLY: Record<string, string> = {
  "husky 9, exit 0": 'echo "checking"\nexit 0\n',
  "husky 8 source line, exit 0":
    '#!/usr/bin/env sh\n. "$(dirname -- "$0")/_/husky.sh"\n\necho checking\nexit 0\n',
  "husky 5 source line": '#!/bin/sh\n. "$(dirname "$0")/_/husky.sh"\nnpm test\n',
  "exec": "#!/bin/sh\nexec npx lint-staged\n",
  "final || exit": "#!/bin/sh\nnpm test || exit\n",
  "set -e and a failing command": "#!/bin/sh\nset -e\nfalse\n",
  "conditional exit": '#!/bin/sh\nif [ -n "$CI" ]; then exit 0; fi\nnpm test\n',
  "function that exits": "#!/bin/sh\ndone_() { exit 0; }\ndone_\n",
  "sourced file": "#!/bin/sh\n. ./scripts/pre-push.sh\n",
  "heredoc": "#!/bin/sh\ncat <<'EOF'\nexit 0\nEOF\n",
  "no final newline": "#!/bin/sh\n# comment\nexit 0",
  "only comments, no final newline": "#!/bin/sh\n# nothing yet",
  "empty": "",
  "CRLF": "#!/bin/sh\r\n# c\r\nexit 0\r\n",
};

Deno.test("insertOurLine() puts our line before the first command and removal restores the bytes", async (t) => {
  for (const [name, before] of Object.entries(ENDS_EARLY)) {
    await t.step(name, () => {
      const inserted = insertOurLine(before, LINE, HUSKY);
      assert.ok(inserted.ok);
      const text = inserted.text;
      assert.deepEqual(ourLineReachable(text, HUSKY), { present: true, ok: true });
      const lines = text.split("\n");
      const ours = lines.indexOf(LINE);
      // Everything before ours is the shebang, blank, a comment or husky's source line.
      for (const l of lines.slice(0, ours)) {
        assert.match(l.trim(), /^$|^#|^\. "\$\(dirname (-- )?"\$0"\)\/_\/husky\.sh"$/, l);
      }
      const again = insertOurLine(text, LINE, HUSKY);
      assert.ok(again.ok);
      assert.equal(again.text, text, "idempotent");
      const removed = removeOurLines(text);
      assert.deepEqual(removed, { text: before, deleteFile: false, removed: 1 });
    });
  }
});

Deno.test("a line an older install appended after exit 0 is unreachable, and install moves it up", () => {
  const old = `#!/bin/sh\necho hi\nexit 0\n${LINE}\n`;
  assert.deepEqual(ourLineReachable(old, HUSKY), {
    present: true,
    ok: false,
    line: 2,
    text: "echo hi",
  });
  const moved = insertOurLine(old, LINE, HUSKY);
  assert.ok(moved.ok);
  assert.equal(moved.text, `#!/bin/sh\n${LINE}\necho hi\nexit 0\n`);
  assert.deepEqual(ourLineReachable("#!/bin/sh\nexit 0\n", HUSKY), { present: false });
});

Deno.test("husky's source line counts as falling through only in husky's file", () => {
  const text = '#!/bin/sh\n. "$(dirname -- "$0")/_/husky.sh"\nnpm test\n';
  assert.deepEqual(placeOurLine(text, HUSKY), { ok: true, index: 2 });
  assert.deepEqual(placeOurLine(text, PLAIN), { ok: true, index: 1 });
});

Deno.test("a file whose interpreter is not a shell is refused with the reason", () => {
  for (
    const shebang of ["#!/usr/bin/env node", "#!/usr/bin/python3", "#!/usr/bin/env -S deno run"]
  ) {
    const placed = insertOurLine(`${shebang}\nconsole.log(1)\n`, LINE, HUSKY);
    assert.equal(placed.ok, false);
    assert.match(!placed.ok ? placed.reason : "", /not a shell script/);
    assert.equal(isShellScript(`${shebang}\n`), false);
  }
  for (const shebang of ["#!/bin/sh", "#!/bin/bash", "#!/usr/bin/env zsh", "#!/bin/dash", ""]) {
    assert.ok(insertOurLine(`${shebang}\nnpm test\n`, LINE, HUSKY).ok, shebang);
  }
});

Deno.test("a created file is deleted on removal unless the user added lines", () => {
  const created = insertOurLine(null, LINE, HUSKY);
  assert.ok(created.ok);
  assert.ok(created.text.includes(CREATED_LINE));
  assert.equal(removeOurLines(created.text).deleteFile, true);
  assert.equal(removeOurLines(created.text + "npm test\n").deleteFile, false);
  const reinstalled = insertOurLine(created.text + "npm test\n", LINE, HUSKY);
  assert.ok(reinstalled.ok);
  assert.equal(reinstalled.text, created.text + "npm test\n");
});

Deno.test("refersToOwnPath() spots hooks that find themselves through $0", () => {
  assert.ok(refersToOwnPath('. "$(dirname "$0")/husky.sh"\n'));
  assert.ok(refersToOwnPath('hookName=`basename "${0}"`\n'));
  assert.ok(refersToOwnPath('HERE="$(dirname "${BASH_SOURCE[0]}")"\n'));
  assert.equal(refersToOwnPath('git lfs pre-push "$@"\n'), false);
});
