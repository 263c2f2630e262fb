/**
 * The review of what a turn's moved refs hold that its worktree does not (lib/gates/turn/refs.ts),
 * and the one verdict the stop decides from (docs/design.md "Turn gate"): each part is baseline
 * tree → the
 * baseline tree with only the files whose versions at the ref's tip no known tree has as the tip has
 * them (lib/gates/turn/ref_versions.ts: the user's uncommitted edits the worktree still has are
 * never read as deleted), through the same review pipeline and per-part cache as the worktree;
 * the outcomes merge — a finding listed once however many parts hold it — blocking when any part
 * blocks, partially reviewed or NOT reviewed when any part was not reviewed (`on_partial`), could
 * not run when no part was reviewed and one could not run (`on_error`).
 *
 * @module
 */
import { type GateContext, hookSeconds } from "./context.ts";
import type { HookInput } from "../hook_io.ts";
import type { StoredVerdict } from "./decision.ts";
import type { RefPart } from "./refs.ts";

/** A verdict with the words that say which part of the turn it is about. */
export interface PartVerdict {
  /** e.g. `the worktree`, `commits on refs/heads/side`. */
  label: string;
  verdict: StoredVerdict;
}

const REVIEWED = new Set(["approved", "needs-attention"]);

/**
 * Review each moved ref's part (its unknown file versions) from the baseline and merge with the
 * worktree's verdict.
 *
 * @param input the hook's input
 * @param turn the gate, the turn's deadline and baseline, the worktree's verdict and the parts
 * @returns the merged verdict
 * @throws whatever lib/gates/turn/review.ts `reviewTurn` throws
 */
export async function reviewRefParts(
  input: HookInput,
  turn: GateContext & {
    deadline: number;
    baseline: string;
    worktree: StoredVerdict;
    parts: readonly RefPart[];
  },
): Promise<StoredVerdict> {
  const { reviewTurn } = await import("./review.ts");
  const verdicts: PartVerdict[] = [{ label: "the worktree", verdict: turn.worktree }];
  for (const part of turn.parts) {
    const refs = part.refs.join(", ");
    const { verdict } = await reviewTurn(input, {
      repo: turn.repo,
      config: turn.config,
      baseline: turn.baseline,
      current: part.tree,
      deadline: turn.deadline,
      onPartial: turn.gate.on_partial,
      gateMode: turn.gate.mode,
      label: `${turn.door.turnLabel}: commits on ${refs} that the worktree no longer shows`,
      gate: turn.door.gateName,
      seconds: hookSeconds(turn),
      agentMessage: turn.payload.last_assistant_message,
    });
    verdicts.push({ label: `commits on ${refs}`, verdict });
  }
  return mergeVerdicts(verdicts);
}

/**
 * Merge the verdicts of a turn's parts into one (pure). Findings of every part block (a part's
 * finding names its part in the title), each listed once: a finding whose fingerprint an earlier
 * part's finding has (the same problem at the same lines of the same file) is that one; a part that was not reviewed makes the whole partial
 * (some part reviewed) or not reviewed / could not run (none); parts with nothing to review add
 * nothing.
 *
 * @param parts the worktree's verdict first, then one per moved ref
 * @returns one verdict; the first part's run folder when it has one
 */
export function mergeVerdicts(parts: readonly PartVerdict[]): StoredVerdict {
  const counted = parts.filter((p) =>
    p.verdict.status !== "nothing-to-review" || p.verdict.message
  );
  if (counted.length === 0) return parts[0].verdict;
  if (counted.length === 1 && counted[0] === parts[0]) return parts[0].verdict;
  const reviewed = counted.filter((p) => REVIEWED.has(p.verdict.status));
  const missed = counted.filter((p) => !REVIEWED.has(p.verdict.status));
  const blocking = onceEach(
    counted.flatMap((p) =>
      p.verdict.blocking.map((f) => p === parts[0] ? f : { ...f, title: `${f.title} (${p.label})` })
    ),
  );
  const runDir = parts.find((p) => p.verdict.runDir)?.verdict.runDir ?? "";
  const notSeen = missed.map((p) =>
    `${p.label} NOT reviewed (${p.verdict.message ?? p.verdict.status})`
  );
  if (reviewed.length === 0) {
    const failed = missed.find((p) => p.verdict.status !== "not-reviewed") ?? missed[0];
    return { status: failed.verdict.status, runDir, message: notSeen.join("; "), blocking };
  }
  const partial = [
    ...reviewed.flatMap((p) => p.verdict.partial ? [`${p.label}: ${p.verdict.partial}`] : []),
    ...notSeen,
  ];
  return {
    status: reviewed.some((p) => p.verdict.status === "needs-attention")
      ? "needs-attention"
      : "approved",
    runDir,
    blocking,
    ...(partial.length ? { partial: partial.join("; ") } : {}),
  };
}

/** The findings without those whose fingerprint an earlier one has (the first is kept). */
function onceEach(findings: StoredVerdict["blocking"]): StoredVerdict["blocking"] {
  const seen = new Set<string>();
  return findings.filter((f) => {
    if (!f.fingerprint) return true;
    if (seen.has(f.fingerprint)) return false;
    seen.add(f.fingerprint);
    return true;
  });
}
