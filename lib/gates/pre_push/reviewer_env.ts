/**
 * The reviewer a push may use while an agent turn is open (README "Security model", pre-push row).
 * The agent under review runs `git push` from its own shell, and the pre-push hook takes the
 * push's environment: `PATH=…/my-claude:$PATH git push`, `ANTHROPIC_BASE_URL=<a server that
 * approves> git push` or `REVIEW_GATE_FAIL_ON=critical git push` would let the agent choose who
 * approves its work and what blocks. So while a turn is open in this repository
 * (lib/gates/pre_push/open_turns.ts), the push reviews with the reviewer the earliest open turn's
 * start recorded (lib/gates/turn/reviewer_identity.ts): each provider's program as the start
 * found it (its path, through `REVIEW_GATE_<NAME>_BIN`; a program the start did not find stays
 * missing), and without every answer-changing variable (lib/providers/reviewer_env.ts) whose value
 * differs from the start's or that the start did not have — values are stored only as digests, so
 * a variable is dropped, never restored. A turn that may be open but whose start cannot be read
 * (lib/gates/pre_push/open_turns.ts "unknown") gives no reviewer to hold to: the push's own is
 * used (README "Not protected"; `--guard` refuses moving `XDG_STATE_HOME`, the key's folder). What the review child
 * carries from the user's provider config (Claude Code's settings `env` and credential helpers,
 * Codex's carried `config.toml` keys) cannot be held back — its old content is not kept — so a
 * change to it since the turn's start blocks the push, named; so does, under `provider: "auto"`, a
 * change of the provider it chooses (a login written during the turn). The push names what it held
 * back. A turn recorded by an older version, with no reviewer record, holds nothing back.
 *
 * @module
 */
import { isReviewerVar, reviewerVarDigests } from "../../providers/reviewer_env.ts";
import { providerPrograms } from "../turn/guard_files.ts";
import type { OpenTurn } from "./open_turns.ts";

/** Where each provider's carried config lives, for people. */
const CARRIED_FROM: Record<string, string> = {
  claude: "the env and credential helpers of ~/.claude/settings.json",
  codex: "the carried keys of $CODEX_HOME/config.toml and .env",
};

/** The push's environment with the open turn's reviewer, and what was held back. */
export interface PushReviewerEnv {
  env: Record<string, string | undefined>;
  /** e.g. `ANTHROPIC_BASE_URL (changed)`, `claude program (…)`; empty when nothing differed. */
  heldBack: string[];
  /** The session whose start was used, when one was. */
  session?: string;
  /**
   * What changed since the turn's start that cannot be held back (the provider config the review
   * child carries: its old content is not stored): the push is then blocked, naming it.
   */
  untrusted: string[];
}

/**
 * The environment a push reviews with, given the open turns.
 *
 * @param turns the open turns of the repository
 * @param env the push's environment
 */
export async function pushReviewerEnv(
  turns: readonly OpenTurn[],
  env: Record<string, string | undefined>,
): Promise<PushReviewerEnv> {
  const open = turns.flatMap((t) =>
    t.kind === "open" && t.session.reviewerAtStart ? [{ name: t.name, session: t.session }] : []
  ).sort((a, b) =>
    (a.session.turnStartedAt ?? "") < (b.session.turnStartedAt ?? "")
      ? -1
      : (a.session.turnStartedAt ?? "") > (b.session.turnStartedAt ?? "")
      ? 1
      : 0
  );
  // a turn whose start cannot be read gives no reviewer to hold to; dropping variables could only
  // make the review fail to run, which lets the push through NOT reviewed (README Not protected)
  if (open.length === 0) return { env, heldBack: [], untrusted: [] };
  const start = open[0].session.reviewerAtStart!;
  const out = { ...env };
  const heldBack: string[] = [];
  const now = await reviewerVarDigests(env);
  for (const [name, digest] of Object.entries(now)) {
    if (start.vars[name] === digest) continue;
    delete out[name];
    heldBack.push(`${name} (${start.vars[name] ? "changed" : "set"} since the turn started)`);
  }
  for (const name of Object.keys(start.vars)) {
    if (!(name in now)) heldBack.push(`${name} (unset since the turn started: left unset)`);
  }
  const programs = providerPrograms(out);
  for (const [provider, path] of Object.entries(start.programs)) {
    if (programs[provider] === path) continue;
    // the start's program, or none: a name that cannot be a file keeps the provider missing
    out[`REVIEW_GATE_${provider.toUpperCase()}_BIN`] = path ?? "/nonexistent/review-gate-reviewer";
    heldBack.push(
      `the ${provider} program (${programs[provider] ?? "none"} now, ${
        path ?? "none"
      } at the turn's start)`,
    );
  }
  for (const name of Object.keys(out)) {
    if (isReviewerVar(name) && out[name] === undefined) delete out[name];
  }
  const untrusted: string[] = [];
  if (start.carried) {
    const { carriedDigests } = await import("../turn/reviewer_identity.ts");
    const now = await carriedDigests(out);
    for (const [provider, digest] of Object.entries(start.carried)) {
      if (now[provider] !== digest) {
        untrusted.push(
          `the ${provider} config the reviewer carries (${
            CARRIED_FROM[provider] ?? "its config"
          }) changed since the turn started`,
        );
      }
    }
  }
  if (start.chosen !== undefined) {
    // provider "auto" at the start: a login or program that appeared since must not pick another
    const { autoChoice } = await import("../turn/reviewer_identity.ts");
    const now = await autoChoice(out);
    if (now !== start.chosen) {
      untrusted.push(
        `the provider "auto" chooses changed since the turn started (${start.chosen ?? "none"} ` +
          `then, ${now ?? "none"} now)`,
      );
    }
  }
  return { env: out, heldBack, session: open[0].name.replace(/\.json$/, ""), untrusted };
}
