/**
 * Acknowledgements in a review (docs/design.md "Acknowledgements"): which ones hold,
 * which are told to the model for this change (and so belong to the verdict's cache key), and the
 * notes that mark each finding of an answer with its fingerprint and acknowledgement.
 *
 * @module
 */
import { acksDigest, acksForChange, activeAcks, noteFindings } from "../acks/match.ts";
import { readAcks } from "../acks/file.ts";
import type { Ack } from "../acks/types.ts";
import type { Runner } from "../exec/exec.ts";
import type { Change } from "../git/types.ts";
import { fingerprintFindings } from "../kinds/review/fingerprint.ts";
import type { FindingNote, ReviewAnswer } from "../kinds/review/types.ts";

/** The acknowledgements of one review. */
export interface ReviewAcks {
  /** Every acknowledgement that holds today. */
  active: Ack[];
  /** The ones told to the model (on files the change touches). */
  told: Ack[];
  /** Digest of `told`, for the verdict cache key. */
  digest: string;
}

/**
 * Settle a review's acknowledgements: the given ones, or the worktree's `.review-gate/acks.json`.
 *
 * @param given acknowledgements the caller read from the trusted side (CI base, Stop baseline)
 * @param at runner and repository root (to read the worktree file), the change, the clock
 * @throws {import("../base/errors.ts").ConfigError} for an invalid acks file
 */
export async function reviewAcks(
  given: readonly Ack[] | undefined,
  at: { runner: Runner; root: string; change: Change; now: Date },
): Promise<ReviewAcks> {
  const all = given ?? await readAcks(at.runner, { kind: "worktree", root: at.root });
  const active = activeAcks(all, at.now);
  const told = acksForChange(active, new Set(at.change.files.map((f) => f.path)));
  return { active, told, digest: await acksDigest(told) };
}

/**
 * The notes of an answer's findings: fingerprints from the reviewed tree, acknowledgements matched.
 *
 * @throws what reading the reviewed tree throws (a git failure)
 */
export async function noteAnswer(
  answer: ReviewAnswer,
  change: Change,
  acks: readonly Ack[],
): Promise<FindingNote[]> {
  return noteFindings(await fingerprintFindings(answer.findings, change.tree), acks);
}
