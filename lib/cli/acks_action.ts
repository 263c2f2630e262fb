/**
 * The work of `review-gate acks`, loaded when it runs (lib/cli/acks.ts defines the command: its
 * flags and help).
 *
 * @module
 */
import { readAcks, writeAcks } from "../acks/file.ts";
import { isActive } from "../acks/match.ts";
import { type Ack, ACKS_FILE } from "../acks/types.ts";
import { quotePath } from "../git/coverage_text.ts";
import { resolveRepo } from "../git/repo.ts";
import { SHORT_FINGERPRINT } from "../kinds/review/fingerprint.ts";
import { sanitizeForTerminal } from "../formats/sanitize.ts";
import type { CliDeps } from "./deps.ts";

function describe(ack: Ack, now: Date): string {
  const state = isActive(ack, now)
    ? (ack.expires ? `until ${ack.expires}` : "no expiry")
    : `EXPIRED ${ack.expires}`;
  return [
    `${ack.fingerprint.slice(0, SHORT_FINGERPRINT)}  [${ack.severity ?? "?"}] ${
      quotePath(ack.file)
    }${ack.lines ? `:${ack.lines}` : ""} ${ack.title.replace(/\s+/g, " ")}`,
    `  acknowledged (${ack.reason}) — ${state}; ${ack.by ?? "unknown"}, ${
      ack.created.slice(0, 10)
    }`,
  ].join("\n");
}

/** `acks`: the command's work (lib/cli/acks.ts parses its arguments). */
export async function acksAction(
  flags: { prune?: boolean; json?: boolean },
  deps: CliDeps,
): Promise<void> {
  const now = deps.now();
  const repo = await resolveRepo(deps.runner, deps.cwd);
  const acks = await readAcks(deps.runner, { kind: "worktree", root: repo.root });
  const kept = flags.prune ? acks.filter((a) => isActive(a, now)) : acks;
  if (kept.length !== acks.length) await writeAcks(repo.root, kept);
  if (flags.json) {
    const out = kept.map((a) => ({ ...a, active: isActive(a, now) }));
    deps.stdout.write(JSON.stringify(out, null, 2) + "\n");
    return;
  }
  const lines = kept.map((a) => describe(a, now));
  if (flags.prune) lines.push(`Removed ${acks.length - kept.length} expired.`);
  if (kept.length === 0 && !flags.prune) lines.push(`No acknowledged findings (${ACKS_FILE}).`);
  deps.stdout.write(sanitizeForTerminal(lines.join("\n") + "\n"));
}
