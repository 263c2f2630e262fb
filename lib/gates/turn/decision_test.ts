import assert from "node:assert/strict";
import type { Finding } from "../../kinds/review/types.ts";
import type { SessionState } from "../../store/sessions.ts";
import { decideStop, GATE_ERROR, type StoredVerdict } from "./decision.ts";

const FINDING = {
  title: "Null dereference",
  severity: "high",
  file: "src/a.ts",
  line_start: 3,
  line_end: 3,
} as Finding;

const CASES: {
  name: string;
  verdict: StoredVerdict;
  streak: number;
  onError?: "allow" | "block";
  onPartial?: "allow" | "block";
  mode?: "warn";
  kind: "allow" | "message" | "block";
  counter: number;
  text?: RegExp;
}[] = [
  {
    name: "allows an approval silently and resets the counter",
    verdict: { status: "approved", runDir: "/runs/1", blocking: [] },
    streak: 1,
    kind: "allow",
    counter: 0,
  },
  {
    name: "blocks on blocking findings and counts the block",
    verdict: { status: "changes-requested", runDir: "/runs/1", blocking: [FINDING] },
    streak: 1,
    kind: "block",
    counter: 2,
    text:
      /\/runs\/1\/review\.md[\s\S]*After 3 blocks in a row \(max_blocks\) the stop is let through/,
  },
  {
    name: "allows with a message once max_blocks blocks in a row were reached (counter kept)",
    verdict: { status: "changes-requested", runDir: "/runs/1", blocking: [FINDING] },
    streak: 3,
    kind: "message",
    counter: 3,
    text: /still finds 1 blocking finding but stopped blocking after 3 blocks in a row/,
  },
  {
    name: "a later blocking stop of the capped turn allows again",
    verdict: { status: "changes-requested", runDir: "/runs/2", blocking: [FINDING] },
    streak: 3,
    kind: "message",
    counter: 3,
    text: /stopped blocking after 3 blocks in a row/,
  },
  {
    name: "a clean stop after the cap resets the counter",
    verdict: { status: "approved", runDir: "/runs/3", blocking: [] },
    streak: 3,
    kind: "allow",
    counter: 0,
  },
  {
    name: "still blocks the last time before max_blocks (counter reaches the cap)",
    verdict: { status: "changes-requested", runDir: "/runs/1", blocking: [FINDING] },
    streak: 2,
    kind: "block",
    counter: 3,
  },
  {
    name: "allows a partial review loudly with on_partial allow",
    verdict: { status: "approved", runDir: "/r", blocking: [], partial: "reviewed 1 of 2 lines" },
    streak: 0,
    kind: "message",
    counter: 0,
    text: /only PARTIALLY reviewed/,
  },
  {
    name: "blocks a partial review with on_partial block",
    verdict: { status: "approved", runDir: "/r", blocking: [], partial: "reviewed 1 of 2 lines" },
    streak: 0,
    onPartial: "block",
    kind: "block",
    counter: 1,
  },
  {
    name: "blocks a turn NOT reviewed with on_partial block, whatever on_error says",
    verdict: { status: "not-reviewed", runDir: "/r", message: "too large", blocking: [] },
    streak: 0,
    onPartial: "block",
    kind: "block",
    counter: 1,
    text: /too large/,
  },
  {
    name: "allows a review that could not run loudly with on_error allow",
    verdict: { status: "timeout", runDir: "", message: "took too long", blocking: [] },
    streak: 0,
    kind: "message",
    counter: 0,
    text: /NOT reviewed: timeout: took too long/,
  },
  {
    name: "blocks a gate error with on_error block",
    verdict: { status: GATE_ERROR, runDir: "", message: "the Stop gate failed: x", blocking: [] },
    streak: 0,
    onError: "block",
    kind: "block",
    counter: 1,
    text: /could not review this turn's changes: the Stop gate failed: x/,
  },
  {
    name: "names the files excluded by rule of an approved turn instead of a bare allow",
    verdict: {
      status: "approved",
      runDir: "/r",
      blocking: [],
      excluded: "yarn.lock (default: yarn lockfile)",
    },
    streak: 0,
    kind: "message",
    counter: 0,
    text: /^review-gate: approved; excluded by rule: yarn\.lock \(default: yarn lockfile\)$/,
  },
  {
    name: "names them for non-blocking findings too",
    verdict: {
      status: "needs-attention",
      runDir: "/r",
      blocking: [],
      excluded: "a.snap (default: snapshot)",
    },
    streak: 0,
    kind: "message",
    counter: 0,
    text: /^review-gate: needs-attention, nothing blocking; excluded by rule: a\.snap/,
  },
  {
    name: "adds them to a partial review's message",
    verdict: {
      status: "approved",
      runDir: "/r",
      blocking: [],
      partial: "reviewed 1 of 2 changed lines",
      excluded: 'dist/a.js (exclude "dist/")',
    },
    streak: 0,
    kind: "message",
    counter: 0,
    text: /only PARTIALLY reviewed[^\n]*\nExcluded by rule \(not reviewed\): dist\/a\.js/,
  },
  {
    name: "adds them to a block's reason",
    verdict: {
      status: "needs-attention",
      runDir: "/r",
      blocking: [FINDING],
      excluded: "go.sum (default: go checksums)",
    },
    streak: 0,
    kind: "block",
    counter: 1,
    text:
      /blocking finding[\s\S]*\nExcluded by rule \(not reviewed\): go\.sum \(default: go checksums\)/,
  },
  {
    name: "warn mode: blocking findings allow with a would-block message and reset the counter",
    verdict: { status: "needs-attention", runDir: "/runs/w", blocking: [FINDING] },
    streak: 2,
    mode: "warn",
    kind: "message",
    counter: 0,
    text:
      /^review-gate \(warn mode\): would block this turn: 1 blocking finding:\n- \[high\] src\/a\.ts:3 Null dereference\nFull review: \/runs\/w\/review\.md\nThe turn goes ahead: gates\.claude_stop\.mode is "warn"/,
  },
  {
    name: "warn mode: a partial review's note follows the would-block message",
    verdict: {
      status: "needs-attention",
      runDir: "/r",
      blocking: [FINDING],
      partial: "reviewed 1 of 2 lines",
    },
    streak: 0,
    mode: "warn",
    kind: "message",
    counter: 0,
    text: /would block this turn[\s\S]*\nreview-gate: this turn was only PARTIALLY reviewed/,
  },
  {
    name: "warn mode: on_partial block still blocks a partial review",
    verdict: {
      status: "needs-attention",
      runDir: "/r",
      blocking: [FINDING],
      partial: "reviewed 1 of 2 lines",
    },
    streak: 0,
    mode: "warn",
    onPartial: "block",
    kind: "block",
    counter: 1,
    text: /reviewed only part of this turn's changes/,
  },
  {
    name: "warn mode: a gate-control finding still blocks, naming the review's as would-block",
    verdict: {
      status: "needs-attention",
      runDir: "/r",
      blocking: [FINDING, {
        ...FINDING,
        file: ".review-gate.json",
        gateControl: '".review-gate.json"',
      }],
    },
    streak: 0,
    mode: "warn",
    kind: "block",
    counter: 1,
    text:
      /found 1 blocking finding in this turn's changes:\n- \[high\] \.review-gate\.json:3[\s\S]*The model's review found 1 finding that would block; it does not, as gates\.claude_stop\.mode is "warn":\n- \[high\] src\/a\.ts:3/,
  },
  {
    name: "warn mode: a review that could not run is still NOT reviewed",
    verdict: { status: "timeout", runDir: "", message: "took too long", blocking: [] },
    streak: 0,
    mode: "warn",
    kind: "message",
    counter: 0,
    text: /NOT reviewed: timeout: took too long/,
  },
];

Deno.test("decideStop() decides from the verdict and the streak", async (t) => {
  for (const c of CASES) {
    await t.step(c.name, async () => {
      const saved: Partial<SessionState>[] = [];
      const out = await decideStop(c.verdict, {
        streak: c.streak,
        maxBlocks: 3,
        onError: c.onError ?? "allow",
        ...(c.onPartial ? { onPartial: c.onPartial } : {}),
        ...(c.mode ? { mode: c.mode } : {}),
        gateName: "claude-stop",
        save: (patch) => Promise.resolve(void saved.push(patch)),
      });
      assert.equal(out.exitCode, 0);
      assert.deepEqual(saved, [{ consecutiveBlocks: c.counter }]);
      const json = out.stdout ? JSON.parse(out.stdout) : null;
      const kind = json === null ? "allow" : json.decision === "block" ? "block" : "message";
      assert.equal(kind, c.kind, out.stdout);
      if (c.text) assert.match(json.reason ?? json.systemMessage, c.text);
    });
  }
});
