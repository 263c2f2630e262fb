/**
 * The user config a push may use while an agent turn is open (README "Security model", pre-push
 * row). Your config outside the repository is trusted, but an agent running as you can write it in
 * the middle of its turn — `{"exclude":["src/**"]}`, `gates.pre_push.enabled: false`, `on_error:
 * "allow"`, a higher `fail_on` — and push before its Stop can flag the edit. So while a turn is open
 * in this repository (lib/gates/pre_push/open_turns.ts), a user config that differs from the one the
 * turn's start recorded (its path or its text) is judged like the worktree's `.review-gate.json`:
 * the push uses the config from the turn's start, and the file's values now apply only where they
 * are stricter, key by key (lib/rules/untrusted.ts `stricterConfig`: a lower `fail_on`, `block`
 * over `allow`, an enabled gate over a disabled one; its filters, provider and instructions are not
 * taken). An invalid file now is ignored, the turn's start still applies.
 *
 * Which start: with several open turns, the earliest one's (it predates every open turn's edits);
 * the others' only where stricter. A turn whose prompts named the user config and every setting
 * the file loosens (the Stop gate's rule, lib/gates/turn/guard_config.ts `settingAsked`: one named
 * setting does not accept another) asked for the change: it does not hold the file back. A turn that carries a change an earlier Stop held back (`heldConfig`)
 * holds it back too, and so does a record whose last Stop gave up on one
 * (lib/gates/pre_push/open_turns.ts). A
 * turn whose start is unknown (its record does not verify or is gone, or an older version recorded
 * no text and the file changed since) has no start to use: the push then starts from no user config
 * at all (the defaults, with every `REVIEW_GATE_*` variable held back: reviewer_env.ts), and the
 * file applies only where stricter. An edit made
 * before the turn started, or after its Stop answered for the work, is yours and applies whole.
 *
 * @module
 */
import {
  type Config,
  loadConfig,
  type LoadConfigOptions,
  readUserConfigText,
} from "../../config/config.ts";
import { ConfigError } from "../../base/errors.ts";
import type { Runner } from "../../exec/exec.ts";
import type { Repo } from "../../git/repo.ts";
import { ignoredRepoKeys, stricterConfig } from "../../rules/untrusted.ts";
import { changedFiles, userConfigFile } from "../turn/guard_files.ts";
import { promptAsked } from "../turn/guard.ts";
import { settingAsked } from "../turn/guard_config.ts";
import { type OpenTurn, openTurns } from "./open_turns.ts";
import type { SessionState } from "../../store/sessions.ts";

/** A user config text to load instead of the file (`null`: none). */
export type UserText = LoadConfigOptions["userText"];

/** How a push reads the user config. */
export type PushUserConfig =
  /** No open turn changed it: the file as it is now. */
  | { kind: "file" }
  /**
   * Held back: `base` is the config the push starts from (a turn's start, or `null` for none), and
   * each of `stricter` (the other starts and, as `undefined`, the file now) applies only where
   * stricter. `why` says why, for people.
   */
  | { kind: "held"; base: UserText; stricter: UserText[]; why: string };

/**
 * Decide how this push reads the user config.
 *
 * @param at the repository, the push's environment and clock, and the open turns when read
 * @returns `file`, or `held` with the turn's start
 * @throws Deno.errors from listing the repository's `sessions/` folder
 */
export async function pushUserConfig(
  runner: Runner,
  at: {
    repo: Repo;
    env: Record<string, string | undefined>;
    now: Date;
    /** The open turns, when the caller has read them already. */
    turns?: readonly OpenTurn[];
  },
): Promise<PushUserConfig> {
  const turns = at.turns ?? await openTurns(at.repo, at.env, at.now);
  if (turns.length === 0) return { kind: "file" };
  const now = await readUserConfigText(at.env);
  const guarded = userConfigFile(at.env);
  const unknown: string[] = [];
  const starts: { text: UserText; at: string; name: string }[] = [];
  for (const turn of turns) {
    const start = await startOf(runner, at.repo, turn, { now, guarded, env: at.env });
    if (start.kind === "unknown") unknown.push(start.what);
    else if (start.kind === "changed") starts.push(start.start);
  }
  if (unknown.length === 0 && starts.length === 0) return { kind: "file" };
  starts.sort((a, b) => a.at < b.at ? -1 : a.at > b.at ? 1 : 0);
  const texts = starts.map((s) => s.text);
  if (unknown.length > 0) {
    return {
      kind: "held",
      base: null,
      stricter: [...texts, undefined],
      why: `an agent turn may be open in this repository whose start is unknown (${
        unknown.join("; ")
      }): the push uses no user config, and yours applies only where it is stricter (that session's next prompt records its start again)`,
    };
  }
  const first = starts[0];
  return {
    kind: "held",
    base: first.text,
    stricter: [...texts.slice(1), undefined],
    why:
      `user config changed during an open agent turn: the push uses the config from the turn's start (session ${
        first.name.replace(/\.json$/, "")
      }, ${first.at}); its values now apply only where stricter. A change you made applies once that turn's Stop answers for the work, or when a prompt of that session names it ("review-gate config")`,
  };
}

type Start =
  | { kind: "same" }
  | { kind: "changed"; start: { text: UserText; at: string; name: string } }
  | { kind: "unknown"; what: string };

/** What one open turn says about the user config now. */
async function startOf(
  runner: Runner,
  repo: Repo,
  turn: OpenTurn,
  at: {
    now: { path: string | null; text: string | null };
    guarded: ReturnType<typeof userConfigFile>;
    env: Record<string, string | undefined>;
  },
): Promise<Start> {
  if (turn.kind === "unknown") return { kind: "unknown", what: turn.what };
  const { session } = turn;
  const recorded = session.userConfigAtStart;
  const started = session.turnStartedAt ?? "start time unknown";
  const changed = recorded
    ? recorded.path !== at.now.path || recorded.text !== at.now.text
    : await changedSinceGuard(runner, repo, session, at.guarded);
  if (changed === false) return { kind: "same" };
  if (
    recorded && at.guarded && promptAsked(session.prompt, at.guarded.names) &&
    await everyLooseningAsked(session, recorded, at.env)
  ) {
    return { kind: "same" };
  }
  if (!recorded) {
    return {
      kind: "unknown",
      what:
        `the turn record sessions/${turn.name} holds no copy of the user config it started with`,
    };
  }
  const source = `the user config at the start of session ${turn.name.replace(/\.json$/, "")}`;
  const text = recorded.text === null ? null : { text: recorded.text, source };
  return { kind: "changed", start: { text, at: started, name: turn.name } };
}

/**
 * Whether the turn's prompts asked for every setting the user config now loosens against the one
 * its start recorded (lib/gates/turn/guard_config.ts `settingAsked`, the Stop gate's rule: one
 * named setting does not accept another). A file that does not load now is not asked for.
 */
async function everyLooseningAsked(
  session: SessionState,
  recorded: { path: string | null; text: string | null },
  env: Record<string, string | undefined>,
): Promise<boolean> {
  const source = "the user config at the turn's start";
  try {
    const start = (await loadConfig({
      env,
      userText: recorded.text === null ? null : { text: recorded.text, source },
    })).config;
    const now = (await loadConfig({ env })).config;
    const loosened = ignoredRepoKeys(start, now, stricterConfig(start, now));
    return loosened.every((setting) => settingAsked(session.prompt, setting));
  } catch (error) {
    if (error instanceof ConfigError) return false;
    throw error;
  }
}

/** For a record without a copy of the user config: whether its fingerprint differs now. */
async function changedSinceGuard(
  runner: Runner,
  repo: Repo,
  session: SessionState,
  guarded: ReturnType<typeof userConfigFile>,
): Promise<boolean> {
  if (!guarded || !session.guard || session.guard.files[guarded.path] === undefined) return true;
  return (await changedFiles(runner, repo, [guarded], session.guard)).length > 0;
}

/**
 * Load a config under a {@linkcode PushUserConfig}: as is for `file`; for `held`, from `base`, with
 * each of `stricter` applied only where stricter. A `stricter` text that does not load (the file now
 * is invalid) is ignored and said.
 *
 * @param user how the push reads the user config
 * @param load loads the config with the user config text given (`undefined`: the file)
 * @returns the config, and the keys (or the reason) the user config now was not applied for
 * @throws {ConfigError} when `base` does not load, or the file does not for `file`
 */
export async function loadWithUserConfig(
  user: PushUserConfig,
  load: (userText: UserText) => Promise<Config>,
): Promise<{ config: Config; ignored: string[] }> {
  if (user.kind === "file") return { config: await load(undefined), ignored: [] };
  let config = await load(user.base);
  const ignored: string[] = [];
  for (const text of user.stricter) {
    let other: Config;
    try {
      other = await load(text);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      ignored.push(`(invalid: ${error.message})`);
      continue;
    }
    const stricter = stricterConfig(config, other);
    if (text === undefined) ignored.push(...ignoredRepoKeys(config, other, stricter));
    config = stricter;
  }
  return { config, ignored: [...new Set(ignored)] };
}

/**
 * The one line a push says when it held the user config back.
 *
 * @param user a `held` decision
 * @param ignored what {@linkcode loadWithUserConfig} did not apply of the file now
 */
export function heldUserConfigNote(
  user: Extract<PushUserConfig, { kind: "held" }>,
  ignored: readonly string[],
): string {
  const not = ignored.length > 0 ? `; not applied: ${ignored.join(", ")}` : "";
  return `review-gate: ${user.why}${not}\n`;
}
