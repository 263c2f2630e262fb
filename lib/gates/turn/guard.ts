/**
 * The agent cannot switch off its reviewer (issue "The reviewer cannot be steered", item 6): a turn
 * that changes what controls the turn gate — review-gate's config (the repository's
 * `.review-gate.json`, the user's config), review guidelines (`REVIEW.md` at any depth and
 * `.review-gate/` contents, acknowledgements included), `.gitattributes` at any depth and git's other
 * attribute sources (they mark files generated, `-diff` or binary, out of the review), the installed
 * git hooks (`.husky/`, the hooks directory, `core.hooksPath`), the agent's settings (Claude Code's
 * `.claude/settings*.json` and user settings, Codex's `hooks.json` and `config.toml`), the program
 * the installed hooks run and the user's shell startup files (lib/gates/turn/guard_files.ts lists
 * the files outside the tree) — gets a blocking finding of its own, unless the user's prompt for
 * that turn asked for it.
 *
 * "Asked for it" is decided conservatively: one sentence of the prompt (recorded by the turn's
 * start) must hold a change verb ({@linkcode promptAsked}: "change", "disable", "ack"…) and name the
 * thing — the file's name (`REVIEW.md`, `settings.local.json`, `hooks.json`, `pre-push`…). For
 * review-gate's own config the decision is per setting (lib/gates/turn/guard_config.ts): a stricter
 * setting needs no naming, a loosened one is accepted only when a sentence names that setting
 * (`fail_on`, "disable the gate"), and the others are held back and named. A prompt that only says
 * "fix the build" or "fix what review-gate reported" does not cover an edit to the gate: a user who
 * wants the change, or made it themselves, says so by name in a prompt.
 *
 * A change made during the turn is the turn's, whoever made it: review-gate cannot tell the user's
 * own `gate disable`, `ack` or `install` in their terminal from the same command run by the agent
 * (the agent markers of lib/base/agent_env.ts are environment variables the agent can unset, `env
 * -u CLAUDECODE …`), and a change made between turns before a Stop answered for the work is that
 * work's too. So the finding tells the agent not to undo a change the user made but to ask the user
 * to name it in their next prompt, and to revert only its own. The user's escapes are in the prompt
 * (naming the thing), `REVIEW_GATE=0` when starting the agent, and `uninstall`. The findings count towards `max_blocks` like any other block, so this can never
 * loop. Files in the turn's tree diff are found with one `git diff --name-only`; files
 * outside it by the fingerprints lib/gates/turn/guard_files.ts recorded at the turn's start.
 *
 * @module
 */
import { relative } from "../../base/path.ts";
import type { GateFinding } from "../messages.ts";
import type { Runner } from "../../exec/exec.ts";
import { git } from "../../git/git.ts";
import type { Repo } from "../../git/repo.ts";
import {
  changedFiles,
  CONFIG_KINDS,
  guardedFiles,
  type GuardRecord,
  providerPrograms,
} from "./guard_files.ts";

/** What a guarded path is, and the words that name it in a prompt (lowercase). */
interface Guarded {
  /** Repo-relative path (`/`-separated), or an absolute path outside the repository. */
  file: string;
  what: string;
  names: readonly string[];
}

/**
 * Whether a path of the turn's tree diff controls the gate (the files also fingerprinted outside
 * the diff — configs and settings — are left to those fingerprints).
 *
 * @param path repo-relative, `/`-separated
 * @param hooksDir the hooks directory relative to the repository root, when inside it
 */
export function guardedTreePath(path: string, hooksDir: string | null): Guarded | null {
  // compared as a case-insensitive file system would (macOS): git opens `src/.GITATTRIBUTES` there
  // as `src/.gitattributes`, and the guidelines file is found under any case of its name
  const folded = path.toLowerCase();
  const base = folded.split("/").at(-1);
  if (base === "review.md") {
    return { file: path, what: "review guidelines (REVIEW.md)", names: ["review.md"] };
  }
  if (base === ".gitattributes") {
    // marks files generated, -diff or binary (out of the review) and steers what git add records
    return { file: path, what: "git attributes (.gitattributes)", names: ["gitattributes"] };
  }
  if (folded.startsWith(".review-gate/")) {
    return {
      file: path,
      what: "review-gate's repository files",
      names: [".review-gate/", "acks.json", "ack…finding"],
    };
  }
  if (folded.startsWith(".husky/")) {
    return { file: path, what: "the husky git hooks", names: ["husky", "pre-push"] };
  }
  if (hooksDir && folded.startsWith(`${hooksDir.toLowerCase()}/`)) {
    return { file: path, what: "the git hooks", names: ["pre-push", "git hook"] };
  }
  return null;
}

/**
 * Verbs that make a sentence ask for a change (word-bounded, lowercase). A sentence that only
 * names the thing ("explain what .review-gate.json does") asks for nothing.
 */
export const CHANGE_VERBS: readonly string[] = [
  "change",
  "edit",
  "update",
  "modify",
  "set",
  "unset",
  "disable",
  "enable",
  "turn off",
  "turn on",
  "switch off",
  "switch on",
  "switch",
  "remove",
  "delete",
  "add",
  "append",
  "ack",
  "acknowledge",
  "install",
  "uninstall",
  "reinstall",
  "raise",
  "lower",
  "increase",
  "decrease",
  "write",
  "create",
  "rename",
  "replace",
  "revert",
  "restore",
  "configure",
  "bypass",
  "skip",
  "silence",
  "pause",
  "allow",
  "put",
  "move",
  "rewrite",
  "drop",
  "relax",
  "tighten",
  "upgrade",
  "patch",
  "accept",
  "mark",
  "unmark",
  "turn",
  "make",
  "tweak",
  "adjust",
];

const VERB = new RegExp(
  `(?:^|[^a-z0-9_./-])(${
    CHANGE_VERBS.map((v) => v.replace(" ", "\\s+")).join("|")
  })(?:s|d|ed)?(?![a-z0-9_-]|\\.[a-z])`,
  "g",
);
const NEGATION = /(?:\b(?:don'?t|do not|never|not|no|without|avoid)\s+(?:\w+\s+){0,1})$/;

/**
 * True when the text names the guarded thing: a name is a substring, or `a…b` — the word `a`,
 * later the word `b` ("turn off…gate" in "turn off the pre-push gate"). For telling which words
 * name a file; whether a prompt asked for a change is {@linkcode promptAsked}.
 */
export function namesIt(text: string, names: readonly string[]): boolean {
  const lower = text.toLowerCase();
  return names.some((name) => {
    if (!name.includes("…")) return lower.includes(name);
    const [a, b] = name.split("…").map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    return new RegExp(`\\b${a}\\b.*\\b${b}\\b`).test(lower);
  });
}

/**
 * True when the user's prompt asks for a change to the guarded thing. The rule, strict and the
 * same everywhere: one sentence of the prompt (split at `.`, `!`, `?`, `;` followed by a space, or
 * a line break) must name the thing — one of `names`, as a substring — and hold a change verb
 * ({@linkcode CHANGE_VERBS}, a whole word, or with `s`, `d` or `ed`: the user's "I acked it"
 * counts) not negated by a "don't", "never", "not" or "without"
 * just before it. "Set fail_on to critical in .review-gate.json" and "please turn off the
 * pre-push gate" ask; "explain what .review-gate.json does" and "don't edit .review-gate.json"
 * do not.
 *
 * @param prompt the turn's prompt text, as recorded (`undefined` when unknown: never asked)
 * @param names lowercase words, any of which names the thing
 */
export function promptAsked(prompt: string | undefined, names: readonly string[]): boolean {
  return askingSentences(prompt).some((sentence) => namesIt(sentence, names));
}

/**
 * The sentences of a prompt that ask for a change (lowercase): split as {@linkcode promptAsked}
 * splits, each holding a change verb not negated just before it.
 *
 * @param prompt the turn's prompt text, as recorded (`undefined`: none)
 */
export function askingSentences(prompt: string | undefined): string[] {
  if (!prompt) return [];
  return prompt.toLowerCase().split(/[.!?;](?:\s|$)|\n/).filter(hasChangeVerb);
}

function hasChangeVerb(sentence: string): boolean {
  for (const match of sentence.matchAll(VERB)) {
    const start = match.index + match[0].length - match[1].length;
    if (!NEGATION.test(sentence.slice(0, start))) return true;
  }
  return false;
}

/**
 * The words that, in a prompt, make a guarded change the user's, quoted for a message: the file's
 * path when it names it, the config's phrases for review-gate's config, else the first name.
 *
 * @returns e.g. `".review-gate.json", "review-gate config" or "disable the gate"`
 */
export function namingWords(guarded: Guarded): string {
  const words = namesIt(guarded.file, guarded.names) ? [guarded.file] : [];
  if (guarded.names.includes("disable the gate")) {
    words.push("review-gate config", "disable the gate");
  }
  if (words.length === 0 && guarded.names.length > 0) words.push(guarded.names[0]);
  const quoted = words.map((w) => `"${w}"`);
  return quoted.length <= 1
    ? quoted.join("")
    : `${quoted.slice(0, -1).join(", ")} or ${quoted.at(-1)}`;
}

/** `controls` or `control`, as the guarded thing's name is singular or plural. */
function controlVerb(what: string): string {
  // the last word, without a parenthesised file name; a path (`info/attributes`) is one file
  const noun = what.replace(/ \(.*\)$/, "").split(" ").at(-1) ?? "";
  return /^(files|hooks|settings|guidelines|attributes)$/.test(noun) ? "control" : "controls";
}

/** What a gate-control finding tells the agent: the user's change stays, the agent's is reverted. */
export function gateControlAdvice(words: string): string {
  return `If the user made this change, do not undo it: tell the user that review-gate needs their next prompt to ask for it by name (${words}, in a sentence with a verb such as "change", "disable" or "ack"). If you made it without being asked, revert it.`;
}

/**
 * The blocking finding for one guarded change, with the words that, in a prompt, allow it
 * (`gateControl`: the stop's block reason tells them; lib/gates/turn/answer.ts).
 */
export function guardFinding(guarded: Guarded): GateFinding {
  const words = namingWords(guarded);
  return {
    severity: "high",
    category: "security",
    scope: "introduced",
    title: `This turn changed ${guarded.what}, which ${controlVerb(guarded.what)} the review gate`,
    body:
      `No prompt since the work was last answered for names ${guarded.file}. review-gate cannot tell the user's own change (their "review-gate gate disable", "ack" or "install") from an agent's, so a change to its configuration, guidelines, hooks or settings blocks until a prompt names it.`,
    file: guarded.file,
    line_start: 1,
    line_end: 1,
    confidence: 1,
    recommendation: gateControlAdvice(words),
    gateControl: words,
  };
}

/** Repo-relative paths that differ between two trees (`-z`, renames as delete + add). */
async function changedTreePaths(
  runner: Runner,
  repo: Repo,
  trees: { from: string; to: string },
): Promise<string[]> {
  const out = await git(runner, repo.root, [
    "diff",
    "--name-only",
    "-z",
    "--no-renames",
    "--no-ext-diff",
    trees.from,
    trees.to,
  ]);
  return new TextDecoder().decode(out).split("\0").filter((p) => p !== "");
}

/** What the guard needs about the turn. */
export interface GuardTurn {
  repo: Repo;
  env: Record<string, string | undefined>;
  /** Recorded at the turn's start; without it (an older session) nothing is checked. */
  record?: GuardRecord;
  /**
   * Whether review-gate's config files are judged setting by setting elsewhere
   * (lib/gates/turn/guard_config.ts, when the turn's start recorded its config): then they are
   * left out here.
   */
  configJudged?: boolean;
  prompt?: string;
  baseline: string;
  current: string;
}

/**
 * The blocking findings of a turn that changed what controls the gate without being asked to
 * (review-gate's own config, setting by setting: lib/gates/turn/guard_config.ts).
 *
 * @returns one finding per changed guarded file the prompt did not name (empty when none)
 * @throws {import("../../base/errors.ts").GitError} when git cannot diff the two trees
 */
export async function guardFindings(runner: Runner, turn: GuardTurn): Promise<GateFinding[]> {
  const { repo, record } = turn;
  if (!record) return [];
  const guarded = guardedFiles(repo, turn.env, record.hooksDir, record).filter((f) =>
    !(turn.configJudged && CONFIG_KINDS.has(f.what))
  );
  const files = await changedFiles(runner, repo, guarded, record);
  const changed: Guarded[] = files.map((f) => {
    const rel = relative(repo.root, f.path);
    return { file: rel.startsWith("..") ? f.path : rel, what: f.what, names: f.names };
  });
  if (record.programs) {
    // a provider that now resolves to another file (a new `claude` earlier on PATH)
    const now = providerPrograms(turn.env);
    for (const [name, path] of Object.entries(now)) {
      const before = record.programs[name];
      if (before === undefined || before === path) continue;
      const file = path ?? before ?? name;
      if (changed.some((c) => c.file === file)) continue;
      changed.push({
        file,
        what: "the reviewer CLI the review runs",
        names: [name, file.toLowerCase(), "reviewer cli", "provider binary"],
      });
    }
  }
  if (turn.current !== turn.baseline) {
    const hooksRel = record.hooksDir ? relative(repo.root, record.hooksDir) : null;
    const inside = hooksRel && !hooksRel.startsWith("..") ? hooksRel : null;
    const paths = await changedTreePaths(runner, repo, { from: turn.baseline, to: turn.current });
    for (const path of paths) {
      const guarded = guardedTreePath(path, inside);
      if (!guarded || changed.some((c) => c.file === guarded.file)) continue;
      changed.push(guarded);
    }
  }
  return changed.filter((g) => !promptAsked(turn.prompt, g.names)).map(guardFinding);
}
