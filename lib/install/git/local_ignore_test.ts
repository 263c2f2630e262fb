import assert from "node:assert/strict";
import { withoutOurLines } from "./local_ignore.ts";

const HEADER = "# review-gate: personal Claude Code settings (install --claude)";
const RELS = [".claude/settings.local.json", ".claude/settings.local.json.review-gate.bak"];

Deno.test("withoutOurLines() takes out exactly the block install appended", () => {
  const user = "# git ls-files --others --exclude-from=.git/info/exclude\n*.log\n";
  const block = `${HEADER}\n/${RELS[0]}\n/${RELS[1]}\n`;
  assert.equal(withoutOurLines(user + block, RELS), user);
  assert.equal(withoutOurLines(block, RELS), "");
  assert.equal(
    withoutOurLines(user + `${HEADER}\n/${RELS[0]}\n` + "tmp/\n", RELS),
    user + "tmp/\n",
  );
});

Deno.test("withoutOurLines() leaves lines the user changed or that are not ours", () => {
  const edited = `*.log\n${HEADER} (mine)\n/${RELS[0]}\n`;
  assert.equal(withoutOurLines(edited, RELS), edited);
  const other = `${HEADER}\n/secrets.txt\n`;
  assert.equal(withoutOurLines(other, RELS), other);
  const noNewline = `${HEADER}\n/${RELS[0]}`;
  assert.equal(withoutOurLines(noNewline, RELS), noNewline);
  assert.equal(withoutOurLines("", RELS), "");
});
