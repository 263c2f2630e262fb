/**
 * Parse what git writes to a `pre-push` hook's stdin (pure). Format, per githooks(5) "pre-push":
 * one line per ref, `<local ref> SP <local object name> SP <remote ref> SP <remote object name> LF`.
 * A deletion has `(delete)` as local ref and an all-zero local id; a new remote ref has an all-zero
 * remote id; ids are 40 hex digits (SHA-1) or 64 (SHA-256). For `git push origin HEAD:refs/heads/x`
 * git already writes the resolved local ref (`HEAD` or `refs/heads/…`). Malformed lines are
 * skipped with a note, never thrown.
 *
 * @module
 */

/** One ref update git is about to push. */
export interface PushUpdate {
  /** Local ref as git wrote it (`refs/heads/main`, `HEAD`, `(delete)`). */
  localRef: string;
  /** Local object id (commit, or tag object for annotated tags); all zeros for a deletion. */
  localOid: string;
  /** Remote ref being updated (`refs/heads/main`, `refs/tags/v1`). */
  remoteRef: string;
  /** Remote object id before the push; all zeros when the remote ref is new. */
  remoteOid: string;
  /** The push deletes `remoteRef`. */
  deletion: boolean;
  /** `remoteRef` does not exist on the remote yet (new branch or tag). */
  newRef: boolean;
  /** `remoteRef` is under `refs/tags/`. */
  tag: boolean;
}

/** Parsed stdin: the updates in order and one note per skipped line. */
export interface PushLines {
  updates: PushUpdate[];
  /** e.g. `line 2 ignored: expected 4 fields, got 3 ("refs/heads/a abc")`. */
  notes: string[];
}

const OID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const ZERO = /^0+$/;

/** True for an all-zero object id of any length (git's "no object"). */
export function isZeroOid(oid: string): boolean {
  return ZERO.test(oid);
}

/**
 * Parse a pre-push hook's stdin.
 *
 * @param stdinText the whole stdin as text (may be empty, may use CRLF)
 * @returns updates in input order and notes for malformed lines (never throws)
 */
export function parsePushLines(stdinText: string): PushLines {
  const updates: PushUpdate[] = [];
  const notes: string[] = [];
  const lines = stdinText.split("\n");
  lines.forEach((raw, index) => {
    const line = raw.replace(/\r$/, "");
    if (line.trim() === "") return;
    const fields = line.trim().split(/\s+/);
    const where = `line ${index + 1} ignored`;
    const shown = JSON.stringify(line.length > 80 ? line.slice(0, 80) + "…" : line);
    if (fields.length !== 4) {
      notes.push(`${where}: expected 4 fields, got ${fields.length} (${shown})`);
      return;
    }
    const [localRef, localOidRaw, remoteRef, remoteOidRaw] = fields;
    const localOid = localOidRaw.toLowerCase();
    const remoteOid = remoteOidRaw.toLowerCase();
    for (const oid of [localOid, remoteOid]) {
      if (!OID.test(oid) && !isZeroOid(oid)) {
        notes.push(`${where}: "${oid.slice(0, 70)}" is not an object id (${shown})`);
        return;
      }
    }
    updates.push({
      localRef,
      localOid,
      remoteRef,
      remoteOid,
      deletion: isZeroOid(localOid) || localRef === "(delete)",
      newRef: isZeroOid(remoteOid),
      tag: remoteRef.startsWith("refs/tags/"),
    });
  });
  return { updates, notes };
}
