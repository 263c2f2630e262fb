import assert from "node:assert/strict";
import type { Finding } from "../../kinds/review/types.ts";
import type { SessionState } from "../../store/sessions.ts";
import { guardedFiles } from "./guard_files.ts";
import { guardedTreePath, guardFinding, namingWords, promptAsked } from "./guard.ts";
import { buildStopBlock } from "./answer.ts";
import { decideStop } from "./decision.ts";
import type { Repo } from "../../git/repo.ts";

const ACKS = guardedTreePath(".review-gate/acks.json", null)!;
const REPO = { root: "/r", gitDir: "/r/.git", commonDir: "/r/.git" } as Repo;
const CONFIG = (() => {
  const f = guardedFiles(REPO, {}, null).find((g) => g.path === "/r/.review-gate.json")!;
  return { file: ".review-gate.json", what: f.what, names: f.names };
})();

Deno.test("a gate-control finding says: keep the user's change and have them name it; revert your own", () => {
  const finding = guardFinding(ACKS);
  assert.equal(
    finding.title,
    "This turn changed review-gate's repository files, which control the review gate",
  );
  assert.equal(
    finding.recommendation,
    'If the user made this change, do not undo it: tell the user that review-gate needs their next prompt to ask for it by name (".review-gate/acks.json", in a sentence with a verb such as "change", "disable" or "ack"). If you made it without being asked, revert it.',
  );
  assert.doesNotMatch(`${finding.body} ${finding.recommendation}`, /Undo the change|Fix it/);
  assert.match(finding.body, /cannot tell the user's own change/);
  assert.equal(finding.gateControl, '".review-gate/acks.json"');
});

Deno.test("the title's verb agrees with what changed", () => {
  assert.match(guardFinding(CONFIG).title, /review-gate's config, which controls the review gate$/);
  const review = guardFinding(guardedTreePath("docs/REVIEW.md", null)!);
  assert.match(review.title, /guidelines \(REVIEW\.md\), which control the review gate$/);
  const hook = guardFinding({
    file: ".git/hooks/pre-push",
    what: "the git pre-push hook",
    names: ["pre-push"],
  });
  assert.match(hook.title, /pre-push hook, which controls the review gate$/);
  const info = { file: ".git/info/attributes", what: "git's info/attributes", names: [] };
  assert.match(guardFinding(info).title, /info\/attributes, which controls the review gate$/);
  const attributes = guardFinding(guardedTreePath("src/.gitattributes", null)!);
  assert.match(attributes.title, /\(\.gitattributes\), which control the review gate$/);
});

Deno.test("the words a finding gives are words a prompt can use", () => {
  assert.equal(
    namingWords(CONFIG),
    '".review-gate.json", "review-gate config" or "disable the gate"',
  );
  for (const guarded of [ACKS, CONFIG, guardedTreePath(".githooks/post-merge", ".githooks")!]) {
    for (const word of namingWords(guarded).match(/"[^"]+"/g)!) {
      assert.ok(promptAsked(`Please change ${word.slice(1, -1)}.`, guarded.names), word);
    }
  }
});

const MODEL = {
  title: "Null dereference",
  severity: "high",
  file: "src/a.ts",
  line_start: 3,
  line_end: 3,
  fingerprint: "3f2a9c1b0d4e5f60",
} as Finding & { fingerprint: string };

function reasonOf(stdout: string): string {
  return String(JSON.parse(stdout).reason);
}

Deno.test("a block on a gate-control finding alone explains the approving review.md", async () => {
  const saved: Partial<SessionState>[] = [];
  const out = await decideStop(
    { status: "approved", runDir: "/runs/1", blocking: [guardFinding(ACKS)] },
    {
      streak: 0,
      maxBlocks: 3,
      onError: "allow",
      gateName: "claude-stop",
      save: (p) => Promise.resolve(void saved.push(p)),
    },
  );
  const reason = reasonOf(out.stdout);
  assert.match(
    reason,
    /^The model's review approved the code \(\/runs\/1\/review\.md\); this block is review-gate's own check of what controls the gate, not a finding of that review\.$/m,
  );
  assert.doesNotMatch(reason, /Full review:|Fix it|Fix them/);
  assert.match(
    reason,
    /If the user made this change, do not undo it: tell the user that review-gate needs their next prompt to ask for it by name \("\.review-gate\/acks\.json", in a sentence with a verb such as "change", "disable" or "ack"\)\. If you made it without being asked, revert it, then finish your turn\./,
  );
  assert.match(reason, /not a bug to fix: review-gate cannot tell the user's own change/);
});

Deno.test("a block on a gate-control finding without a review does not point at review.md", () => {
  const reason = reasonOf(buildStopBlock({ findings: [guardFinding(CONFIG)], maxBlocks: 3 }));
  assert.match(
    reason,
    /This block is review-gate's own check of what controls the gate, not a finding of a model review\./,
  );
  assert.doesNotMatch(reason, /review\.md/i);
  assert.match(
    reason,
    /ask for it by name \("\.review-gate\.json", "review-gate config" or "disable the gate", in a sentence/,
  );
});

Deno.test("a block on both kinds asks to fix the review's findings, not the gate-control one", () => {
  const reason = reasonOf(buildStopBlock({
    findings: [guardFinding(ACKS), guardFinding(CONFIG), MODEL],
    reviewPath: "/runs/2/review.md",
    reviewApproved: false,
    maxBlocks: 3,
  }));
  assert.match(reason, /^Full review: \/runs\/2\/review\.md$/m);
  assert.match(reason, /^Fix the review's finding, then finish your turn:/m);
  assert.match(reason, /The gate-control findings are not a bug to fix/);
  assert.match(
    reason,
    /If the user made these changes, do not undo them: tell the user that review-gate needs their next prompt to ask for each by name \("\.review-gate\/acks\.json"; "\.review-gate\.json", "review-gate config" or "disable the gate", in a sentence with a verb such as "change", "disable" or "ack"\)\. If you made one without being asked, revert it/,
  );
});

Deno.test("a prompt must ask for the change, not merely name the thing", () => {
  for (
    const prompt of [
      "explain what .review-gate.json does",
      "What is in .review-gate/acks.json?",
      "Don't edit .review-gate.json, just fix the test.",
      "Read the pre-push hook and tell me why it failed.",
    ]
  ) {
    assert.equal(
      promptAsked(prompt, CONFIG.names) || promptAsked(prompt, ACKS.names),
      false,
      prompt,
    );
  }
  for (
    const prompt of [
      "Set fail_on to critical in .review-gate.json",
      "please turn off the pre-push gate",
      "Can you disable the stop gate for now?",
      "Edit .review-gate.json so the gate is off.",
    ]
  ) {
    assert.equal(promptAsked(prompt, CONFIG.names), true, prompt);
  }
  assert.equal(promptAsked("ack that finding, it is fine", ACKS.names), true);
});
