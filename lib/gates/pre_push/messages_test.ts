import assert from "node:assert/strict";
import type { ReviewAnswer } from "../../kinds/review/types.ts";
import { renderVerdict, reviewerOf } from "./messages.ts";

const APPROVE: ReviewAnswer = {
  verdict: "approve",
  summary: "Fine.",
  findings: [],
  next_steps: [],
};
const EXCLUDED = [
  { path: "package-lock.json", rule: "default: npm lockfile" },
  { path: "gen/a.ts", rule: ".gitattributes linguist-generated" },
];
const BASE = {
  label: "refs/heads/main (1 commit)",
  answer: APPROVE,
  runDir: "/runs/r1",
  status: "approved",
  findings: [],
  onPartial: "allow" as const,
};

Deno.test("renderVerdict() names the files excluded by rule on the pass line, whatever the source", () => {
  assert.equal(
    renderVerdict({ ...BASE, source: "model", excluded: EXCLUDED }).text,
    "review-gate: refs/heads/main (1 commit): approved; excluded by rule: package-lock.json " +
      "(default: npm lockfile), gen/a.ts (.gitattributes linguist-generated)\n",
  );
  assert.match(
    renderVerdict({ ...BASE, source: "memo", excluded: EXCLUDED }).text,
    /: approved \(cached verdict, no model call\); excluded by rule: package-lock\.json/,
  );
  assert.equal(
    renderVerdict({ ...BASE, source: "model" }).text,
    "review-gate: refs/heads/main (1 commit): approved\n",
    "nothing excluded: the plain line",
  );
});

Deno.test("renderVerdict() adds the excluded files to a block and to a partial warning", () => {
  const finding = {
    title: "Null dereference",
    severity: "high",
    file: "src/a.ts",
    line_start: 3,
    line_end: 3,
  } as ReviewAnswer["findings"][number];
  const block = renderVerdict({
    ...BASE,
    source: "cache",
    findings: [finding],
    excluded: EXCLUDED,
  });
  assert.equal(block.blocked, true);
  assert.match(
    block.text,
    /\nExcluded by rule \(not reviewed\): package-lock\.json \(default: npm lockfile\), gen\/a\.ts/,
  );
  const partial = renderVerdict({
    ...BASE,
    source: "model",
    excluded: EXCLUDED.slice(0, 1),
    coverage: {
      status: "partial",
      reviewedLines: 1,
      omittedLines: 1,
      reviewedBytes: 10,
      omittedBytes: 10,
      omitted: [{ path: "big.ts", reason: "budget", lines: 1, bytes: 10 }],
    },
  });
  assert.match(
    partial.text,
    /only PARTIALLY reviewed[\s\S]*\nExcluded by rule \(not reviewed\): package-lock\.json \(default: npm lockfile\)\n$/,
  );
});

Deno.test("renderVerdict() names at most five excluded files, then a count", () => {
  const many = Array.from(
    { length: 7 },
    (_, i) => ({ path: `s${i}.snap`, rule: "default: snapshot" }),
  );
  assert.match(
    renderVerdict({ ...BASE, source: "model", excluded: many }).text,
    /s4\.snap \(default: snapshot\), and 2 more\n$/,
  );
});

Deno.test("renderVerdict(): every answer from a cached verdict says so the same way, whichever store found it", () => {
  const finding = {
    title: "Null dereference",
    severity: "high",
    file: "src/a.ts",
    line_start: 3,
    line_end: 3,
  } as ReviewAnswer["findings"][number];
  const partial = {
    status: "partial",
    reviewedLines: 1,
    omittedLines: 1,
    reviewedBytes: 1,
    omittedBytes: 1,
    omitted: [],
  } as unknown as NonNullable<Parameters<typeof renderVerdict>[0]["coverage"]>;
  for (const source of ["memo", "cache"] as const) {
    const block = renderVerdict({ ...BASE, source, findings: [finding] }).text;
    const pass = renderVerdict({ ...BASE, source }).text;
    const part = renderVerdict({ ...BASE, source, coverage: partial }).text;
    for (const text of [block, pass, part]) {
      assert.ok(
        text.includes("refs/heads/main (1 commit) (cached verdict, no model call)") ||
          text.includes("refs/heads/main (1 commit): approved (cached verdict, no model call)"),
        `${source}: ${text}`,
      );
    }
  }
  assert.doesNotMatch(
    renderVerdict({ ...BASE, source: "model", findings: [finding] }).text,
    /cached/,
  );
});

Deno.test("renderVerdict() in warn mode says what would block and lets the push through", () => {
  const finding = {
    title: "Null dereference",
    severity: "high",
    file: "src/a.ts",
    line_start: 3,
    line_end: 3,
  } as ReviewAnswer["findings"][number];
  const warned = renderVerdict({
    ...BASE,
    source: "model",
    status: "needs-attention",
    findings: [finding],
    mode: "warn",
    modeFrom: "repo",
  });
  assert.equal(warned.blocked, false);
  assert.equal(warned.wouldBlock, 1);
  assert.equal(
    warned.text,
    "review-gate: would block: 1 blocking finding in refs/heads/main (1 commit)\n" +
      "  - [high] src/a.ts:3 Null dereference\n" +
      "Full review: /runs/r1/review.md\n" +
      'The push goes ahead: gates.pre_push.mode is "warn" in the .review-gate.json the remote ' +
      "has, so review-gate only says what it would block. To have such findings block: " +
      "review-gate gate block pre-push (your pushes block at once; commit .review-gate.json and " +
      "push it so everyone's do)\n",
  );
  // warn mode from the user's own config: the hint edits that file
  const user = renderVerdict({
    ...BASE,
    source: "model",
    status: "needs-attention",
    findings: [finding],
    mode: "warn",
    modeFrom: "user",
  });
  assert.match(
    user.text,
    /gates\.pre_push\.mode is "warn" in your user config, so review-gate only says what it would block\. To have such findings block: review-gate gate block pre-push --user\n$/,
  );
  // a partial review still follows on_partial, and a cached one says so
  const partial = renderVerdict({
    ...BASE,
    source: "memo",
    findings: [finding],
    mode: "warn",
    onPartial: "block",
    coverage: {
      status: "partial",
      reviewedLines: 1,
      omittedLines: 1,
      reviewedBytes: 10,
      omittedBytes: 10,
      omitted: [{ path: "big.ts", reason: "budget", lines: 1, bytes: 10 }],
    },
  });
  assert.equal(partial.blocked, true);
  assert.match(
    partial.text,
    /^review-gate: would block: 1 blocking finding in refs\/heads\/main \(1 commit\) \(cached verdict, no model call\)\n[\s\S]*only PARTIALLY reviewed[\s\S]*on_partial is "block"[\s\S]*REVIEW_GATE_CACHE=0 git push\n$/,
  );
  // no blocking finding: the plain pass
  assert.deepEqual(renderVerdict({ ...BASE, source: "model", mode: "warn" }), {
    text: "review-gate: refs/heads/main (1 commit): approved\n",
    blocked: false,
  });
});

Deno.test("renderVerdict() names the reviewer on a pass, a block and a partial warning, cached or not", () => {
  const reviewer = reviewerOf({ provider: "claude", model: "sonnet" });
  assert.equal(
    renderVerdict({ ...BASE, source: "model", reviewer }).text,
    "review-gate: refs/heads/main (1 commit): approved; reviewed by claude sonnet\n",
  );
  assert.equal(
    renderVerdict({ ...BASE, source: "memo", reviewer: { ...reviewer, fake: true } }).text,
    "review-gate: refs/heads/main (1 commit): approved (cached verdict, no model call); reviewed by claude sonnet (the bundled fake)\n",
  );
  const finding = {
    title: "Null dereference",
    severity: "high",
    file: "src/a.ts",
    line_start: 3,
    line_end: 3,
  } as ReviewAnswer["findings"][number];
  assert.match(
    renderVerdict({ ...BASE, source: "cache", findings: [finding], reviewer }).text,
    /^review-gate: push blocked: 1 blocking finding in refs\/heads\/main \(1 commit\) \(cached verdict, no model call\); reviewed by claude sonnet\n/,
  );
  const council = reviewerOf({
    provider: "claude",
    council: { providers: ["claude", "codex"] },
  });
  assert.match(
    renderVerdict({
      ...BASE,
      source: "model",
      reviewer: council,
      coverage: {
        status: "partial",
        reviewedLines: 1,
        omittedLines: 1,
        reviewedBytes: 10,
        omittedBytes: 10,
        omitted: [{ path: "big.ts", reason: "budget", lines: 1, bytes: 10 }],
      },
    }).text,
    /^review-gate: WARNING: refs\/heads\/main \(1 commit\) was only PARTIALLY reviewed by council claude, codex: /,
  );
});
