/**
 * Which config a turn gate judges with when review-gate's own config changed during the turn
 * (docs/design.md "Turn gate"), setting by setting. The config in force at the turn's start
 * (`configAtStart`, trusted) is compared with the one on disk through the pre-push gate's own
 * comparison (lib/rules/untrusted.ts `stricterConfig`, `ignoredRepoKeys`): a setting the disk makes
 * stricter applies without being named; a setting it loosens (or changes in a way that is not
 * stricter: the provider, the filters) applies only when a sentence of the user's prompt with a
 * change verb names that setting — its key with an underscore (`fail_on`, `max_blocks`), its
 * dotted path, its phrase ("disable the gate", "warn mode"), or a shorter key (`mode`, `provider`,
 * `exclude`) together with the file or review-gate's config in the same sentence. Every other
 * loosening is held back: the stricter of the start's and the disk's value is used, and the guard
 * gives the turn a blocking finding naming the settings ({@linkcode configFindings}). A config on
 * disk that does not load is held back whole unless a prompt names the file.
 *
 * A hold outlives a Stop that gave up at `max_blocks` ({@linkcode carryHold}): the start that Stop
 * leaves the next turn keeps the held config, the user config text and the config files'
 * fingerprints from before the change, and the session's `heldConfig` names what is held. Later
 * Stops keep judging with the held config and say so once each, without blocking on it again,
 * until a prompt names the change.
 *
 * @module
 */
import { ConfigError } from "../../base/errors.ts";
import { relative } from "../../base/path.ts";
import type { Config } from "../../config/config.ts";
import type { Runner } from "../../exec/exec.ts";
import type { Repo } from "../../git/repo.ts";
import { ignoredRepoKeys, stricterConfig } from "../../rules/untrusted.ts";
import type { HeldConfig, SessionState, TurnStart } from "../../store/sessions.ts";
import type { GateFinding } from "../messages.ts";
import {
  changedFiles,
  CONFIG_KINDS,
  CONFIG_NAMES,
  type GuardedFile,
  guardedFiles,
  USER_CONFIG,
} from "./guard_files.ts";
import { askingSentences, gateControlAdvice, namesIt, promptAsked } from "./guard.ts";

/** What of a config change is held back from a Stop. */
export interface ConfigHold {
  /** review-gate's config files that changed since the turn's start. */
  files: GuardedFile[];
  /** The settings held back, dotted (`gates.claude_stop.enabled`); empty when `invalid`. */
  settings: string[];
  /** Why the config on disk did not load, when it did not (then it is held back whole). */
  invalid?: string;
  /** Whether an earlier turn's Stop already told all of it (the session's `heldConfig`). */
  carried: boolean;
  /** When the change was first held (ISO time). */
  since?: string;
}

/** The config a Stop judges with, and what of the config on disk it holds back. */
export interface TrustedConfig {
  config: Config;
  hold: ConfigHold | null;
}

/** The session fields the judgement reads (the turn's start, or the start a prompt will take). */
export type ConfigStart = Pick<
  SessionState,
  "guard" | "configAtStart" | "prompt" | "heldConfig"
>;

/**
 * The config a turn gate uses: the one on disk, except for the settings this turn (or an earlier
 * turn whose Stop gave up) loosened without a prompt naming them (module doc).
 *
 * @param turn the repository, environment and the session's start (`null`: none recorded)
 * @param load reads the config on disk (may throw a `ConfigError`)
 * @returns the config and the hold (`null` when nothing is held back)
 * @throws whatever `load` throws when the config on disk is to be used whole, and a
 *   `ConfigError` the prompt asked for (a config named by the user that does not load)
 */
export async function trustedConfig(
  runner: Runner,
  turn: { repo: Repo; env: Record<string, string | undefined>; session: ConfigStart | null },
  load: () => Promise<Config>,
): Promise<TrustedConfig> {
  const { session, repo } = turn;
  const held = session?.configAtStart;
  if (!session?.guard || !held) return { config: await load(), hold: null };
  const configs = guardedFiles(repo, turn.env, null).filter((f) => CONFIG_KINDS.has(f.what));
  const files = await changedFiles(runner, repo, configs, session.guard);
  if (files.length === 0) return { config: await load(), hold: null };
  let disk: Config;
  try {
    disk = await load();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    if (files.every((f) => promptAsked(session.prompt, f.names))) throw error;
    const carried = session.heldConfig?.invalid === true;
    const hold = { files, settings: [], invalid: error.message, carried };
    return { config: held, hold: { ...hold, since: session.heldConfig?.since } };
  }
  const stricter = stricterConfig(held, disk);
  const loosened = ignoredRepoKeys(held, disk, stricter);
  const unasked = loosened.filter((setting) => !settingAsked(session.prompt, setting));
  if (unasked.length === 0) return { config: disk, hold: null };
  const config = structuredClone(stricter);
  for (const setting of loosened) {
    if (!unasked.includes(setting)) setPath(config, setting, getPath(disk, setting));
  }
  const before = session.heldConfig?.settings ?? [];
  const carried = !session.heldConfig?.invalid && unasked.every((s) => before.includes(s));
  return {
    config,
    hold: { files, settings: unasked, carried, since: session.heldConfig?.since },
  };
}

/** Phrases that name a gate's `enabled` (`…`: a word, later another; guard.ts `namesIt`). */
const ENABLED_PHRASES = CONFIG_NAMES.filter((n) => /able|turn o|switch o|gate (dis|en)/.test(n));
/** Phrases that name a gate's `mode` (README "Warn first"). */
const MODE_PHRASES = [
  "warn mode",
  "warn-mode",
  "mode warn",
  "gate warn",
  "warn first",
  "gate block",
];
/** Words that, with a short key in the same sentence, name review-gate's config. */
const CONFIG_CONTEXT = [
  ".review-gate.json",
  "review-gate/config.json",
  "review-gate",
  "review gate",
];

/**
 * Whether a sentence of the prompt asks for a change to one setting (module doc: its key with an
 * underscore, its dotted path, its phrase, or a shorter key with the config named beside it).
 *
 * @param prompt the turn's prompts, as recorded (`undefined`: never asked)
 * @param setting dotted path (`gates.claude_stop.mode`, `fail_on`)
 */
export function settingAsked(prompt: string | undefined, setting: string): boolean {
  const path = setting.toLowerCase();
  const segments = path.split(".");
  const leaf = segments.at(-1) ?? path;
  // a dotted path or a key with an underscore names it alone; a short top-level key does not
  const strong = [path, leaf].filter((n) => /[._]/.test(n));
  const phrases = leaf === "enabled" ? ENABLED_PHRASES : leaf === "mode" ? MODE_PHRASES : [];
  const context = [...CONFIG_CONTEXT, ...segments.slice(0, -1).filter((s) => s.includes("_"))];
  const word = new RegExp(`(?:^|[^a-z0-9_])${leaf.replace(/[^a-z0-9_]/g, "")}(?![a-z0-9_])`);
  // "turn claude_stop off": a gate named with a switch word asks for its `enabled`
  const gates = segments.slice(0, -1).flatMap((s) =>
    s.includes("_") ? [s, s.replace("_", "-")] : []
  );
  const switched = leaf === "enabled" && gates.length > 0
    ? (s: string) => namesIt(s, gates) && /\b(off|on|disabled?|enabled?)\b/.test(s)
    : () => false;
  return askingSentences(prompt).some((sentence) =>
    namesIt(sentence, strong) || namesIt(sentence, phrases) || switched(sentence) ||
    (word.test(sentence) && namesIt(sentence, context))
  );
}

/** The words that, in a prompt, accept a held setting (for a finding or a note). */
export function settingWords(setting: string, file: string): string {
  const leaf = setting.split(".").at(-1) ?? setting;
  if (leaf === "enabled") return `"disable the gate"`;
  // the path, not "warn mode": a block's reason that says "warn mode" reads as if it were in it
  if (leaf === "mode" || leaf.includes("_")) return `"${leaf === "mode" ? setting : leaf}"`;
  return `"${leaf}" with "${file}"`;
}

/** The words for every held setting, quoted, joined with "or". */
function holdWords(hold: ConfigHold, file: string): string {
  const words = [...new Set(hold.settings.map((s) => settingWords(s, file)))];
  return words.length <= 1 ? words.join("") : `${words.slice(0, -1).join(", ")} or ${words.at(-1)}`;
}

/** A config file's path for people: repo-relative inside the repository, else absolute. */
function shown(repo: Repo, file: GuardedFile): string {
  const rel = relative(repo.root, file.path);
  return rel.startsWith("..") ? file.path : rel;
}

/**
 * The guard's blocking findings for a config change held back this turn: one per changed config
 * file, naming the held settings (none for a hold an earlier Stop already told: {@linkcode heldNote}).
 *
 * @returns the findings (empty when nothing new is held back)
 */
export function configFindings(repo: Repo, hold: ConfigHold | null): GateFinding[] {
  if (!hold || hold.carried) return [];
  return hold.files.map((f) => {
    const file = shown(repo, f);
    const words = hold.invalid ? `"${file}"` : holdWords(hold, file);
    const what = hold.invalid
      ? `it does not load (${hold.invalid}), so this stop judged with the config from the turn's start`
      : `it loosens ${
        hold.settings.join(", ")
      }, which this stop did NOT apply: it judged with the config from the turn's start for ${
        hold.settings.length === 1 ? "that setting" : "those settings"
      } (stricter changes apply)`;
    return {
      severity: "high",
      category: "security",
      scope: "introduced",
      title: hold.invalid
        ? `This turn made ${f.what} invalid, which controls the review gate`
        : `This turn loosened ${
          hold.settings.join(", ")
        } in ${f.what}, which controls the review gate`,
      body:
        `No prompt since the work was last answered for names ${words}; ${what}. review-gate cannot tell the user's own change (their "review-gate gate disable" or edit) from an agent's, so a loosening of its config blocks until a prompt names the setting.`,
      file,
      line_start: 1,
      line_end: 1,
      confidence: 1,
      recommendation: gateControlAdvice(words),
      gateControl: words,
    };
  });
}

/** The text of a hold for people: what is held back and how the user accepts it. */
function holdText(repo: Repo, hold: ConfigHold): { what: string; accept: string } {
  const files = hold.files.map((f) => shown(repo, f));
  const what = hold.invalid
    ? `the change to ${files.join(" and ")} (it does not load)`
    : `the config change to ${hold.settings.join(", ")} (${files.join(", ")})`;
  const words = hold.invalid ? `"${files[0]}"` : holdWords(hold, files[0]);
  return {
    what,
    accept:
      `to accept it, name it in a prompt (${words}, in a sentence with a verb such as "set" or "disable")`,
  };
}

/**
 * The line a Stop adds while a hold an earlier Stop gave up on is still in force.
 *
 * @returns the note, or `null` when nothing carried over is held back
 */
export function heldNote(repo: Repo, hold: ConfigHold | null): string | null {
  if (!hold?.carried) return null;
  const { what, accept } = holdText(repo, hold);
  const since = hold.since ? ` since ${hold.since}` : "";
  return `review-gate: ${what} is held back${since}: it was NOT accepted, and this stop judged with the config from before it; ${accept}.`;
}

/**
 * What the `max_blocks` give-up says of a hold this turn made: the change was NOT accepted.
 *
 * @returns the sentence, or `undefined` when nothing new is held back
 */
export function heldAtCap(repo: Repo, hold: ConfigHold | null): string | undefined {
  if (!hold || hold.carried) return undefined;
  const { what, accept } = holdText(repo, hold);
  return `${what[0].toUpperCase()}${
    what.slice(1)
  } was NOT accepted: later stops keep judging with the config from before it; ${accept}.`;
}

/**
 * The start a Stop leaves the next turn, with a hold carried over: the config files' fingerprints
 * and the user config text from before the change (so the next turn still sees the change as not
 * accepted, and a push during it holds the user config back: lib/gates/pre_push/user_config.ts),
 * the held config as `configAtStart`, and `heldConfig` naming the held settings.
 *
 * @param seen what the Stop saw (its `configAtStart` is the config it judged with)
 * @param start the session as the turn's start left it
 * @param at the hold and the Stop's clock
 */
export function carryHold(
  seen: TurnStart,
  start: SessionState,
  at: { hold: ConfigHold | null; now: Date },
): TurnStart {
  const { hold } = at;
  if (!hold || !seen.guard || !start.guard) return seen;
  const files = { ...seen.guard.files };
  for (const f of hold.files) {
    const before = start.guard.files[f.path];
    if (before !== undefined) files[f.path] = before;
  }
  const user = hold.files.some((f) => f.what === USER_CONFIG);
  const heldConfig: HeldConfig = {
    settings: hold.settings,
    since: hold.since ?? at.now.toISOString(),
    ...(hold.invalid ? { invalid: true } : {}),
  };
  return {
    ...seen,
    guard: { ...seen.guard, files },
    userConfigAtStart: user ? start.userConfigAtStart : seen.userConfigAtStart,
    heldConfig,
  };
}

type Json = Record<string, unknown>;

function getPath(value: unknown, path: string): unknown {
  return path.split(".").reduce<unknown>(
    (at, key) => (typeof at === "object" && at !== null ? (at as Json)[key] : undefined),
    value,
  );
}

function setPath(value: unknown, path: string, to: unknown): void {
  const keys = path.split(".");
  let at = value as Json;
  for (const key of keys.slice(0, -1)) {
    if (typeof at[key] !== "object" || at[key] === null) at[key] = {};
    at = at[key] as Json;
  }
  const last = keys.at(-1)!;
  if (to === undefined) delete at[last];
  else at[last] = structuredClone(to);
}
