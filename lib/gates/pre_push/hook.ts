/**
 * The pre-push hook's entry point (lib/gates/registry.ts): `hook pre-push <remote> <url>` runs the
 * gate (lib/gates/pre_push/gate.ts), also under the pre-commit framework
 * (lib/gates/pre_push/pre_commit.ts); when the gate throws, a loud warning says the push was NOT
 * reviewed and the push goes ahead — unless the user asked for `gates.pre_push.on_error: "block"`,
 * which is honoured even when the config is invalid elsewhere.
 *
 * @module
 */
import { join } from "../../base/path.ts";
import { type HookEntry, hookFailureText, type HookInput, type HookOutput } from "../hook_io.ts";
import { runPrePushGate } from "./gate.ts";
import { PRE_PUSH_SKIP_HINT } from "./messages.ts";
import { preCommitPush } from "./pre_commit.ts";
import { readRegularText } from "../../base/regular_file.ts";
import { sanitizeForTerminal } from "../../formats/sanitize.ts";

/**
 * `hook pre-push <remote> <url>`: exit 0 (push goes ahead), 1 (blocked) or 130 (interrupted).
 * Under the pre-commit framework (no stdin, no arguments) the push comes from its variables.
 */
export const prePushHook: HookEntry = {
  run: (input, args) => {
    const preCommit = input.stdinText.trim() === "" ? preCommitPush(input.env) : null;
    if (preCommit?.kind === "none") {
      return Promise.resolve({
        stdout: "",
        stderr: `review-gate: ${preCommit.note}\n`,
        exitCode: 0,
      });
    }
    if (preCommit) {
      const { stdinText, remote, url } = preCommit;
      return runPrePushGate({ ...input, stdinText }, { remote, url });
    }
    return runPrePushGate(input, { remote: args[0] ?? "", url: args[1] ?? args[0] ?? "" });
  },
  failed: async (error, input) => {
    const unknown = await unknownTurn(input);
    return prePushFailed(
      error,
      unknown ? { block: true, why: unknown } : {
        block: await blocksOnError(input),
      },
    );
  },
};

/**
 * The note of a turn whose start is unknown (lib/gates/pre_push/reviewer_env.ts): a push held
 * back for it blocks when its review cannot run. `""` when there is none or it cannot be read.
 */
async function unknownTurn(input: HookInput): Promise<string> {
  try {
    const { resolveRepo } = await import("../../git/repo.ts");
    const { openTurns } = await import("./open_turns.ts");
    const { pushReviewerEnv, unknownStartNote } = await import("./reviewer_env.ts");
    const repo = await resolveRepo(input.runner, input.cwd);
    const turns = await openTurns(repo, input.env, input.now());
    return unknownStartNote(await pushReviewerEnv(turns, input.env));
  } catch {
    return "";
  }
}

/**
 * What the pre-push hook says when the gate threw (pure): a loud one-paragraph warning on stderr,
 * exit 0 (exit 1 with the skip hint when `block`; 130 when interrupted). No stack trace; control
 * and bidi characters of the error message are neutralised.
 *
 * @param error what was thrown; a `ConfigError` message names the file or variable and key
 * @param options `block`: `gates.pre_push.on_error` is `"block"`; `why`: it blocks for another
 *   reason (a turn whose start is unknown), said instead
 */
export function prePushFailed(
  error: unknown,
  options: { block?: boolean; why?: string } = {},
): HookOutput {
  if (error instanceof Error && error.name === "InterruptedError") {
    return { stdout: "", stderr: "review-gate: interrupted; the push is stopped\n", exitCode: 130 };
  }
  const outcome = options.why
    ? `The push is blocked: ${sanitizeForTerminal(options.why)} ${PRE_PUSH_SKIP_HINT}`
    : options.block
    ? `The push is blocked because gates.pre_push.on_error is "block". ${PRE_PUSH_SKIP_HINT}`
    : "The push goes ahead unreviewed.";
  return {
    stdout: "",
    stderr: `review-gate: WARNING: the push was NOT reviewed: ${
      hookFailureText(error)
    } ${outcome}\n`,
    exitCode: options.block ? 1 : 0,
  };
}

/**
 * True when the user asked for `gates.pre_push.on_error: "block"`: in the user's config as an open
 * agent turn's start recorded it (lib/gates/pre_push/user_config.ts: an "allow" written during the
 * turn does not undo it), in the user's config or the environment, or in the worktree's `.review-gate.json`, which may make a push stricter but never
 * looser (an "allow" there does not undo the user's "block"). Read even when the config is invalid
 * elsewhere (a typo in another key, a bad `REVIEW_GATE_*` variable): the config files are then read
 * leniently, and any of them saying "block" blocks, so a broken config can never turn an explicit
 * "block" into a silent pass.
 */
async function blocksOnError(input: HookInput): Promise<boolean> {
  try {
    const { resolveRepo } = await import("../../git/repo.ts");
    const { loadConfig, REPO_CONFIG_FILE, userConfigPath } = await import(
      "../../config/config.ts"
    );
    const repo = await resolveRepo(input.runner, input.cwd);
    if (await turnStartBlocks(input, repo)) return true;
    try {
      const layers = [{ env: input.env }, { root: repo.root, env: input.env }];
      for (const options of layers) {
        const { config } = await loadConfig(options);
        if (config.gates.pre_push.on_error === "block") return true;
      }
      return false;
    } catch {
      const { parse } = await import("jsonc-parser");
      for (const path of [userConfigPath(input.env), join(repo.root, REPO_CONFIG_FILE)]) {
        if (!path) continue;
        try {
          const value = parse(await readRegularText(path), [], { allowTrailingComma: true });
          if (value?.gates?.pre_push?.on_error === "block") return true;
        } catch {
          // unreadable: the other file decides
        }
      }
      return false;
    }
  } catch {
    return false;
  }
}

/**
 * True when the user config a push holds back for an open agent turn (its start's text) says
 * `gates.pre_push.on_error: "block"`, read leniently; false when there is none or it cannot be
 * read.
 */
async function turnStartBlocks(
  input: HookInput,
  repo: import("../../git/repo.ts").Repo,
): Promise<boolean> {
  try {
    const { pushUserConfig } = await import("./user_config.ts");
    const user = await pushUserConfig(input.runner, { repo, env: input.env, now: input.now() });
    const text = user.kind === "held" ? user.base?.text : undefined;
    if (text === undefined) return false;
    const { parse } = await import("jsonc-parser");
    const value = parse(text, [], { allowTrailingComma: true });
    return value?.gates?.pre_push?.on_error === "block";
  } catch {
    return false;
  }
}
