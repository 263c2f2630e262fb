/**
 * The shell commands by which an agent would skip or switch off its own review gate (pure), for
 * the optional `PreToolUse` guard on the agent's shell tool (`install --claude --guard`): a push
 * past the pre-push hook (`git push --no-verify`, in any abbreviation git accepts), the skip
 * switches (`REVIEW_GATE=0 …`, `export REVIEW_GATE=…`, `env REVIEW_GATE=…`, `REVIEW_GATE_CHILD=1`,
 * `HUSKY=0`) and every other `REVIEW_GATE_*` variable (`REVIEW_GATE_CLAUDE_BIN`: a reviewer of the
 * agent's choosing), git pointed at other config files (`HOME=…` or `XDG_CONFIG_HOME=…` on a git
 * command, `GIT_CONFIG_GLOBAL`, `GIT_CONFIG_SYSTEM`, `GIT_CONFIG_NOSYSTEM`), writes to git's config
 * files (`.git/config`, `.git/config.worktree`, `~/.gitconfig`, `~/.config/git/config`), a hooks path that bypasses the hooks (`git config core.hooksPath …`, `git -c
 * core.hooksPath=…`, `GIT_CONFIG_PARAMETERS`, `GIT_CONFIG_KEY_n`), push paths that run no pre-push
 * hook or change what it sees (`git send-pack`, `git http-push`, `git push --receive-pack=…` or
 * `--exec=…`, `remote.*.receivepack`, `remote.*.pushurl`, `insteadOf`, `pushInsteadOf`, `git remote set-url
 * --push`, and remote-tracking refs written by hand: `git update-ref refs/remotes/…`, a fetch or
 * push refspec into `refs/remotes/`, writes into `.git/refs/remotes/` or `packed-refs`), review-gate's own off switches
 * (`review-gate gate disable`, `review-gate uninstall`), accepting a finding (`review-gate ack`) and
 * removing or emptying the pre-push hook files or the hooks directory (also after `cd .git/hooks`), and any command on review-gate's state in the git dir
 * (`.git/review-gate/`: the turn baselines, cached verdicts and runs the Stop gate trusts) or on the
 * session anchors and stop stamps of its state folder (`review-gate/anchors/`) other than a plain
 * read (`cat`, `ls`, `grep`… without a redirect). `git push -n` is a dry run and stays allowed;
 * reading `core.hooksPath` (`--get`) too.
 *
 * This is a guard rail, not a sandbox: the rules read the command text (each `;`, `&&`, `||`, `|`
 * or newline separated part on its own) with regular expressions, and a command built to hide its
 * words (`$(printf …)`) gets through. The Stop gate's own findings on changed config, hooks and
 * settings (lib/gates/turn/guard.ts) and the pre-push gate remain. Only the agent's tool calls pass
 * through the guard: the user keeps every escape in their own shell.
 *
 * Paths are matched as a case-insensitive file system (macOS) resolves them: `.GIT/HOOKS/PRE-PUSH`
 * is the hook there.
 *
 * @module
 */

/** One refused kind of command: a test over one command part, and what the agent is told. */
interface EscapeRule {
  test: (part: string) => boolean;
  what: string;
}

const PUSH_NO_VERIFY = /\bgit\b.*\bpush\b.*\s--no-ver/;
const HOOKS_PATH = /core\.hookspath/i;
const READS_CONFIG = /\s(--get|--get-all|--get-regexp|--list|-l)\b/;
/**
 * The skip switches, and every other `REVIEW_GATE_*` variable (`REVIEW_GATE_CLAUDE_BIN` names the
 * reviewer program, `REVIEW_GATE_FAIL_ON` what blocks): set as a prefix, `export`, `env`, `declare
 * -x`, after `set -a`, by `printf -v` or `read`, or unset. The agent has no reason to set any.
 */
const SKIP_VARIABLE =
  /(^|[\s;&|('"`])(REVIEW_GATE\w*|HUSKY|HUSKY_SKIP_HOOKS)=|(^|\s)(unset|-u|-v|read\b.*)\s+['"]?REVIEW_GATE/;
/**
 * Which config files git reads, moved away from the ones the turn's start recorded: a `HOME`,
 * `XDG_CONFIG_HOME` or `XDG_STATE_HOME` (where review-gate's key and turn records are) of the
 * agent's own on a git command (or exported), `GIT_CONFIG_GLOBAL`,
 * `GIT_CONFIG_SYSTEM`, `GIT_CONFIG_NOSYSTEM` anywhere (a `~/.gitconfig` of the agent's choosing
 * can set `core.hooksPath`).
 */
const CONFIG_PLACE = /(^|[\s;&|('"`])GIT_CONFIG_(GLOBAL|SYSTEM|NOSYSTEM)=/;
const HOME_VARIABLE = /(^|[\s;&|('"`])(HOME|XDG_CONFIG_HOME|XDG_STATE_HOME)=/;
const RUNS_GIT_OR_EXPORTS = /\bgit\b|\b(export|declare|typeset)\b/;
/**
 * git's config files: the repository's `.git/config` and `.git/config.worktree`, the user's
 * `~/.gitconfig` and `~/.config/git/config` (`$XDG_CONFIG_HOME/git/config`). A write to one (a
 * redirect, `tee`, `sed -i`, `cp`/`mv` onto it, an `open(…)`) can set `core.hooksPath`; reading
 * one, or copying it elsewhere, stays allowed.
 */
const CONFIG_FILE =
  /(\.git\/config(\.worktree)?|\.gitconfig|(\.config|CONFIG_HOME\}?)\/git\/config)\b/i;
const CONFIG_FILE_LAST = new RegExp(`${CONFIG_FILE.source}['"]?\\s*$`, "i");
const OPENS = /\bopen\s*\(/;
/** The git hooks directory itself (`rm -rf .git/hooks`, `mv .git/hooks …`). */
const HOOKS_DIR = /\.git\/hooks\/?(['"\s]|$)/i;
/** A bare `hooks` or `pre-push` word: what a part after `cd .git` or `cd .git/hooks` names. */
const BARE_HOOK = /(^|\s)['"]?(hooks|pre-push)\b/i;
const CD_GIT_DIR = /^cd\s+['"]?\S*\.git(\/hooks)?\/?['"]?$/i;
const GIT_ENV_CONFIG =
  /\bGIT_CONFIG_PARAMETERS=|\bGIT_CONFIG_KEY_\d+=\S*(hookspath|receivepack|pushurl|pushinsteadof|include\.path|includeif\.)/i;
/**
 * An included config file brought in by hand (`git -c include.path=FILE`, `--config-env`,
 * `includeIf.<cond>.path`, or `git config include.path …`): the file can set `core.hooksPath` or a
 * push URL the rules above would refuse on the command line.
 */
const INCLUDE_CONFIG = /\binclude(if\.[^\s=]*)?\.path\b|--config-env\b/i;
/**
 * review-gate's own hook commands run by hand (`review-gate hook claude-prompt`, `… hook claude-stop`,
 * the codex ones, `main.ts hook …`): a prompt the agent sends as the user's would unlock its own
 * gate-control edits, and a Stop it runs itself would close its turn before its later edits.
 */
const OUR_HOOK = /(review-gate\b|main\.ts\b|turn-stop\.sh\b).*\shook\s+\S/;
/**
 * Push paths that run no pre-push hook: `git send-pack` (the plumbing under `git push`, which never
 * runs hooks) and `git http-push` (the dumb-HTTP pusher).
 */
const HOOKLESS_PUSH = /\bgit\b.*\b(send-pack|http-push)\b|\bgit-(send-pack|http-push)\b/;
/**
 * `git push --receive-pack=<program>` and its alias `--exec` (any abbreviation git accepts: `--rece`
 * on, `--e` on), and the config behind them (`remote.<name>.receivepack`): the program that takes
 * the pushed objects on the other side, which for a local or ssh remote is any command at all.
 */
const RECEIVE_PACK = /\bgit\b.*\bpush\b.*\s--(rece[a-z-]*|e|ex|exe|exec)(=|\s|$)/;
/**
 * Where a push goes, changed behind the hook's back: `remote.<name>.receivepack`,
 * `remote.<name>.pushurl`, `url.<base>.pushInsteadOf` and `insteadOf` (in `git config` or `git -c`)
 * and `git remote set-url --push`: the push then goes somewhere the remote-tracking refs do not
 * describe. Reading them (`--get`) stays allowed; so does `git remote set-url` (switching a remote to
 * ssh is everyday work).
 */
const PUSH_TARGET = /\bremote\.\S+\.(receivepack|pushurl)\b|\.(push)?insteadof\b/i;
const SET_PUSH_URL = /\bgit\b.*\bremote\s+set-url\b.*\s--push\b/;
/**
 * Remote-tracking refs (and `refs/prefetch/`, where `git maintenance` fetches) written by hand:
 * the pre-push gate takes them for what the remote already has, and the Stop does not review their
 * moves, so a forged `refs/remotes/origin/x` would make new commits look pushed — `git update-ref`
 * on them or with `--stdin` (its input is not on the command line), `git symbolic-ref` on them, a
 * refspec whose destination is one (`git fetch . HEAD:refs/remotes/origin/x`), or a write into
 * `.git/refs/remotes/` or `.git/packed-refs`.
 */
const REMOTE_REF = /\brefs\/(remotes|prefetch)\//i;
const REF_WRITER = /\b(update-ref|symbolic-ref)\b/;
const REMOTE_REF_TARGET = /:refs\/(remotes|prefetch)\//i;
const UPDATE_REF_STDIN = /\bupdate-ref\b.*\s--stdin\b/;
const PACKED_REFS = /\bpacked-refs\b/i;
const OUR_OFF_SWITCH = /(review-gate\b|main\.ts\b).*\s(uninstall|gate\s+disable)\b/;
const OUR_ACK = /(review-gate\b|main\.ts\b).*\sack\s/;
const HOOK_FILE = /(hooks\/pre-push|\.husky\/pre-push|\.husky\/_\b|pre-push\.review-gate-chained)/i;
/**
 * review-gate's state in the git dir, however the git dir is spelt (`.git/`, `$(git rev-parse …)/`),
 * and the session anchors and stop stamps in its state folder (`~/.local/state/review-gate/anchors`:
 * a stop stamp the agent rewrites makes the installed Stop script allow its turn unreviewed).
 */
const OUR_STATE =
  /(\.git|\$GIT_DIR|\$\{GIT_DIR\}|\bgit-(common-)?dir\)?|\bgit-path[^/]*)\/review-gate\b|(^|[\s'"=/])review-gate\/(sessions|cache|runs|anchors)\b/i;
/** A command that only reads: a reader with no output redirection and no in-place edit. */
const READS_ONLY =
  /^(cat|ls|head|tail|less|more|grep|rg|jq|wc|stat|file|du|tree|diff)\b(?![^]*(>|\s-i\b|--in-place|\btee\b))/;
const DESTROYS = /\b(rm|mv|chmod|unlink|truncate|cp|ln|install)\b|>|\bsed\s+(-\w+\s+)*-i|\btee\b/;

const HOOK_FILES = "changing or removing the pre-push hook files";

const RULES: readonly EscapeRule[] = [
  {
    test: (part) => PUSH_NO_VERIFY.test(part),
    what: "pushing with --no-verify (it skips the pre-push review)",
  },
  {
    test: (part) => HOOKS_PATH.test(part) && !READS_CONFIG.test(part),
    what: "changing core.hooksPath (git would stop running the review hooks)",
  },
  {
    test: (part) => SKIP_VARIABLE.test(part) || GIT_ENV_CONFIG.test(part),
    what:
      "setting REVIEW_GATE_* (REVIEW_GATE, REVIEW_GATE_CHILD, REVIEW_GATE_CLAUDE_BIN…), HUSKY or git config variables (they switch the review hooks off or change the reviewer)",
  },
  {
    test: (part) =>
      CONFIG_PLACE.test(part) || (HOME_VARIABLE.test(part) && RUNS_GIT_OR_EXPORTS.test(part)),
    what:
      "pointing git or review-gate at other config or state (HOME, XDG_CONFIG_HOME, XDG_STATE_HOME, GIT_CONFIG_GLOBAL, GIT_CONFIG_SYSTEM, GIT_CONFIG_NOSYSTEM: they can switch the review hooks off or hide the open turn)",
  },
  {
    test: (part) =>
      CONFIG_FILE.test(part) && (DESTROYS.test(part) || OPENS.test(part)) &&
      !READS_ONLY.test(part) && !(/^cp\b/.test(part) && !CONFIG_FILE_LAST.test(part)),
    what:
      "writing git's config files (.git/config, ~/.gitconfig: they can switch the review hooks off)",
  },
  {
    test: (part) => INCLUDE_CONFIG.test(part) && !READS_CONFIG.test(part),
    what: "including another git config file (include.path, includeIf, --config-env)",
  },
  {
    test: (part) => OUR_HOOK.test(part),
    what:
      "running review-gate's hook commands by hand (only the agent's host sends the user's prompts and the turn's Stop)",
  },
  {
    test: (part) => HOOKLESS_PUSH.test(part),
    what: "pushing with git send-pack or http-push (they run no pre-push hook)",
  },
  {
    test: (part) => RECEIVE_PACK.test(part),
    what: "pushing with --receive-pack or --exec (another program takes the push)",
  },
  {
    test: (part) => (PUSH_TARGET.test(part) && !READS_CONFIG.test(part)) || SET_PUSH_URL.test(part),
    what:
      "changing where a push goes (remote.*.pushurl, remote.*.receivepack, insteadOf, pushInsteadOf, set-url --push)",
  },
  {
    test: (part) =>
      (REMOTE_REF.test(part) && REF_WRITER.test(part)) || REMOTE_REF_TARGET.test(part) ||
      UPDATE_REF_STDIN.test(part) ||
      ((REMOTE_REF.test(part) || PACKED_REFS.test(part)) && DESTROYS.test(part) &&
        !READS_ONLY.test(part)),
    what:
      "writing remote-tracking or prefetch refs (the gates take them for what the remote already has)",
  },
  {
    test: (part) => OUR_OFF_SWITCH.test(part),
    what: "turning review-gate off (gate disable, uninstall)",
  },
  {
    test: (part) => OUR_ACK.test(`${part} `),
    what: "accepting a finding (review-gate ack is the user's decision)",
  },
  {
    test: (part) => (HOOK_FILE.test(part) || HOOKS_DIR.test(part)) && DESTROYS.test(part),
    what: HOOK_FILES,
  },
  {
    test: (part) => OUR_STATE.test(part) && !READS_ONLY.test(part),
    what:
      "writing review-gate's state (the turn baselines, stop stamps and verdicts the gate trusts)",
  },
];

/**
 * Split a command into the parts the shell runs one after another (`;`, `&&`, `||`, `|`, `&`,
 * newlines), line continuations joined. Quotes are not parsed: a separator inside quotes splits
 * too, which only makes each part shorter.
 */
export function commandParts(command: string): string[] {
  return command.replace(/\\\r?\n/g, " ").split(/;|&&|\|\||\||&|\n/).map((p) => p.trim())
    .filter((p) => p !== "");
}

/**
 * Why a shell command is refused, if it is.
 *
 * @param command the shell command the agent wants to run
 * @returns what the command would do to the gate (one phrase), or `null` when it may run
 */
export function gateEscape(command: string): string | null {
  let inGitDir = false; // after `cd .git` or `cd .git/hooks`: `hooks` and `pre-push` are the hooks
  for (const part of commandParts(command)) {
    const rule = RULES.find((r) => r.test(part));
    if (rule) return rule.what;
    if (/^cd\b/.test(part)) inGitDir = CD_GIT_DIR.test(part);
    else if (inGitDir && BARE_HOOK.test(part) && DESTROYS.test(part) && !READS_ONLY.test(part)) {
      return HOOK_FILES;
    }
  }
  return null;
}
