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
 * (lib/gates/pre_push/open_turns.ts "unknown": a forged record, or the user's key not found because
 * the agent moved `XDG_STATE_HOME` or `HOME` for its push) is held at least as strictly as an open
 * turn whose start set none of these variables: every one set now is dropped, the push names them
 * and the key it could not find, and a review that then cannot run blocks (`on_error: "block"`,
 * lib/gates/pre_push/gate.ts and hook.ts) — never the agent's own reviewer. What the review child
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
import { loadStateKey } from "../../store/state_key.ts";
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
   * Set when the push held back for a turn whose start is unknown: every reviewer variable was
   * dropped, and the review must run (`on_error` is `block`). `key` names why the user's key was not
   * found, when it was not (a moved `XDG_STATE_HOME` or `HOME`).
   */
  unknownStart?: { key?: string };
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
  if (open.length === 0) {
    const unknown = turns.find((t) => t.kind === "unknown");
    return unknown ? await unknownStart(unknown.name, env) : { env, heldBack: [], untrusted: [] };
  }
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

/**
 * A turn that may be open but whose start cannot be read (its record does not verify, or the key
 * it was sealed with is not found: `XDG_STATE_HOME` or `HOME` moved for the push) is held at least
 * as strictly as an open turn whose start set none of them: every reviewer variable set now
 * (lib/providers/reviewer_env.ts, the list an open turn holds back) is dropped, so no program or
 * setting the agent chose reviews the push.
 */
async function unknownStart(
  name: string,
  env: Record<string, string | undefined>,
): Promise<PushReviewerEnv> {
  const out = { ...env };
  const heldBack: string[] = [];
  for (const variable of Object.keys(await reviewerVarDigests(env))) {
    delete out[variable];
    heldBack.push(variable);
  }
  for (const variable of Object.keys(out)) {
    if (isReviewerVar(variable) && out[variable] === undefined) delete out[variable];
  }
  const key = await loadStateKey(env);
  const moved = key.ok
    ? undefined
    : `review-gate's key ${key.path ?? ""} is not usable (${key.problem}): XDG_STATE_HOME=${
      env.XDG_STATE_HOME ?? "(unset)"
    }, HOME=${env.HOME ?? "(unset)"} may not be yours`;
  return {
    env: out,
    heldBack,
    session: name.replace(/\.json$/, ""),
    untrusted: [],
    unknownStart: moved ? { key: moved } : {},
  };
}

/**
 * What a push says when a turn whose start is unknown held its environment back, one sentence
 * with no prefix or newline: what was dropped, why the user's key was not found, and that a review
 * that cannot run blocks. `""` when the turn's start was known.
 */
export function unknownStartNote(reviewer: PushReviewerEnv): string {
  if (!reviewer.unknownStart) return "";
  const held = reviewer.heldBack.length > 0
    ? `without the reviewer variables set in its environment (${reviewer.heldBack.join(", ")})`
    : "with no reviewer variable of its own";
  const key = reviewer.unknownStart.key ? ` (${reviewer.unknownStart.key})` : "";
  return `an agent turn may be open in this repository whose start is unknown (session ${reviewer.session})${key}: the push reviews ${held}, and blocks when the review cannot run (on_error "block"). That session's next prompt records its start again.`;
}
