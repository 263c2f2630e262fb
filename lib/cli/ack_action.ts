/**
 * The work of `review-gate ack`, loaded when it runs (lib/cli/ack.ts defines the command: its
 * flags and help).
 *
 * @module
 */
import { readAcks, writeAcks } from "../acks/file.ts";
import { parseExpiry } from "../acks/match.ts";
import { type Ack, ACKS_FILE } from "../acks/types.ts";
import { UsageError } from "../base/errors.ts";
import { runGit } from "../git/git.ts";
import { resolveRepo } from "../git/repo.ts";
import { SHORT_FINGERPRINT } from "../kinds/review/fingerprint.ts";
import { sanitizeForTerminal } from "../formats/sanitize.ts";
import { location } from "../formats/terminal.ts";
import { findFinding } from "../store/find_finding.ts";
import { stateDir } from "../store/state.ts";
import { agentMarker } from "../base/agent_env.ts";
import type { Runner } from "../exec/exec.ts";
import type { CliDeps } from "./deps.ts";
import { gateChangeNote } from "./gate_change_note.ts";

/** Longest reason kept (schemas/acks.schema.json). */
const MAX_REASON = 2000;

/** `user.name <user.email>` from git config, or undefined when neither is set. */
async function whoAmI(runner: Runner, root: string): Promise<string | undefined> {
  const get = async (key: string) => {
    const result = await runGit(runner, root, ["config", "--get", key]);
    return result.code === 0 ? new TextDecoder().decode(result.stdout).trim() : "";
  };
  const [name, email] = [await get("user.name"), await get("user.email")];
  const who = [name, email ? `<${email}>` : ""].filter(Boolean).join(" ");
  return who === "" ? undefined : who.slice(0, 400);
}

/** `ack`: the command's work (lib/cli/ack.ts parses its arguments). */
export async function ackAction(
  ref: string,
  flags: { reason: string; expires?: string },
  deps: CliDeps,
): Promise<void> {
  const agent = agentMarker(deps.env);
  if (agent) {
    throw new UsageError(
      `Refusing to acknowledge a finding from inside a coding agent's session (${agent} is set): accepting a finding is the user's decision; run this in your own terminal`,
    );
  }
  const reason = flags.reason.trim();
  if (reason === "") throw new UsageError("--reason must say why the finding is accepted");
  if (reason.length > MAX_REASON) {
    throw new UsageError(`--reason is too long (at most ${MAX_REASON} characters)`);
  }
  const now = deps.now();
  const expires = flags.expires === undefined ? undefined : parseExpiry(flags.expires, now);
  const repo = await resolveRepo(deps.runner, deps.cwd);
  const found = await findFinding(stateDir(repo.commonDir), ref);
  const existing = await readAcks(deps.runner, { kind: "worktree", root: repo.root });
  const by = await whoAmI(deps.runner, repo.root);
  const { finding } = found;
  const ack: Ack = {
    fingerprint: found.fingerprint,
    file: finding.file,
    title: finding.title.slice(0, 1000),
    severity: finding.severity,
    lines: finding.line_end > finding.line_start
      ? `${finding.line_start}-${finding.line_end}`
      : `${finding.line_start}`,
    reason,
    created: now.toISOString(),
    ...(expires ? { expires } : {}),
    ...(by ? { by } : {}),
  };
  const replaced = existing.some((a) => a.fingerprint === ack.fingerprint);
  await writeAcks(repo.root, [
    ...existing.filter((a) => a.fingerprint !== ack.fingerprint),
    ack,
  ]);
  deps.stdout.write(sanitizeForTerminal(
    `${replaced ? "Updated" : "Acknowledged"} ${
      ack.fingerprint.slice(0, SHORT_FINGERPRINT)
    }: [${finding.severity}] ${location(finding)} ${finding.title}\n` +
      `  reason: ${reason}${expires ? ` (until ${expires})` : ""}\n` +
      `Recorded in ${ACKS_FILE}: commit it so your team and CI share it.\n` +
      `${gateChangeNote([ACKS_FILE])}\n`,
  ));
}
