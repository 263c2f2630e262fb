/**
 * Acknowledgements in a review (docs/design.md "Acknowledgements"): which ones hold, and which are
 * told to the model for this change (and so belong to the verdict's cache key). The notes that mark
 * each finding of an answer with its fingerprint and acknowledgement are made where the answer is
 * judged (lib/review/finish.ts).
 *
 * @module
 */
import { acksDigest, acksForChange, activeAcks } from "../acks/match.ts";
import { readAcks } from "../acks/file.ts";
import type { Ack } from "../acks/types.ts";
import type { Runner } from "../exec/exec.ts";
import type { Change } from "../git/types.ts";

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
