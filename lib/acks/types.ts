/**
 * Acknowledged findings (docs/design.md "Acknowledgements"): the shapes of
 * `.review-gate/acks.json` (schemas/acks.schema.json). The file lives in the repository and is
 * committed, so acknowledgements are reviewed like code.
 *
 * @module
 */
import type { Severity } from "../kinds/review/types.ts";

/** Repository-relative path of the acks file. */
export const ACKS_FILE = ".review-gate/acks.json";

/** One acknowledged finding (schemas/acks.schema.json `acks[]`). */
export interface Ack {
  /** 64 hex characters (lib/kinds/review/fingerprint.ts). */
  fingerprint: string;
  /** Repository-relative path the finding points at. */
  file: string;
  /** The finding's title when it was acknowledged. */
  title: string;
  severity?: Severity;
  /** Lines it pointed at when acknowledged, `12` or `12-14` (informative only). */
  lines?: string;
  /** Why it is accepted. */
  reason: string;
  /** ISO 8601 UTC timestamp. */
  created: string;
  /** Last day it holds, `YYYY-MM-DD` (UTC); absent for no expiry. */
  expires?: string;
  /** `user.name <user.email>` of who acknowledged it, when known. */
  by?: string;
}

/** Where acknowledgements are read from. */
export type AcksSource =
  /** The file in the worktree (the local user is trusted: `review`, the Stop gates). */
  | { kind: "worktree"; root: string }
  /**
   * The file as committed in a tree-ish (`rev`): the trusted side in CI (the base commit), or the
   * Stop gate's baseline, so a change can never acknowledge its own findings.
   */
  | { kind: "tree"; root: string; rev: string };
