/**
 * The rules a push is judged by (README "Team rules" → "Where the rules are read from"): those the
 * remote already has. The pushed commits, and the worktree they come from, are what is under
 * review — an agent can write either — so neither may choose its own rules: `.review-gate.json`,
 * every `.gitattributes` mark the filters read, the `REVIEW.md` guidelines and the
 * acknowledgements (`.review-gate/acks.json`) are read from the range's base (lib/gates/pre_push/
 * range.ts: the remote's old tip for an update, else the commit on the remote the pushed commits
 * start from; the empty tree, so no repository rules at all, for a first push). The user's own
 * config outside the repository and the environment stay trusted, as everywhere — except what an
 * agent turn open in the repository may have written to the user config since its start
 * (lib/gates/pre_push/user_config.ts: then only its stricter values apply). The worktree's
 * `.review-gate.json` (uncommitted, or committed but not yet on the remote) may only make the push
 * stricter (lib/rules/untrusted.ts); an invalid one is ignored. What was not applied — the
 * worktree's config keys, rule files that differ from the base in the worktree or in the pushed
 * commits — is listed so the gate can say it once; the pushed edits are reviewed as code. A key
 * the base's file sets looser than the config without it (warn mode, the gate disabled, a higher
 * `fail_on`…) counts only when the remote's default branch has it too
 * (lib/gates/pre_push/default_branch.ts): a branch cut in a warn era keeps no warn mode the team
 * took back.
 *
 * @module
 */
import { type Config, loadConfig, REPO_CONFIG_FILE } from "../../config/config.ts";
import { ConfigError } from "../../base/errors.ts";
import type { Runner } from "../../exec/exec.ts";
import { runGit } from "../../git/git.ts";
import type { Repo } from "../../git/repo.ts";
import { readAcks } from "../../acks/file.ts";
import type { Ack } from "../../acks/types.ts";
import { loadRulesConfig } from "../../rules/config_at.ts";
import type { RulesOptions } from "../../rules/options.ts";
import { resolveRulesFrom } from "../../rules/source.ts";
import { ignoredRepoKeys, stricterConfig } from "../../rules/untrusted.ts";
import type { WarnModeFrom } from "./messages.ts";
import { heldUserConfigNote, loadWithUserConfig, type PushUserConfig } from "./user_config.ts";
import { checkDefaultBranch } from "./default_branch.ts";
import type { DefaultBranch } from "./remote_refs.ts";

/** The rules of one ref update, read from the remote's side. */
export interface PushRules {
  rules: RulesOptions;
  /** The config in force: the base's, the user's and the environment's, the worktree's stricter values. */
  config: Config;
  /** Every acknowledgement in the base's acks file (active or not: the caller filters by date). */
  acks: Ack[];
  /** For the run record: what the worktree's config set that was not used. */
  notes: string[];
  /** What differs from the base and was not applied, for people (`src/.gitattributes (pushed)`). */
  notApplied: string[];
  /**
   * What the gate says once per push, whole lines: the base's loosenings the remote's default
   * branch does not share (lib/gates/pre_push/default_branch.ts).
   */
  said: string[];
  /** The remote was asked for its default branch (a push stamp must not replay this). */
  askedRemote: boolean;
  /**
   * With `gates.pre_push.mode: "warn"`: which config chose it — `repo` when the base's
   * `.review-gate.json` alone (with no user config) already says warn, else `user`.
   */
  warnFrom?: WarnModeFrom;
}

/** git pathspecs of every rule file (lib/rules/rule_files.ts `RULE_FILES`). */
const RULE_PATHSPECS = [
  `:(top,literal)${REPO_CONFIG_FILE}`,
  ":(top,glob)**/REVIEW.md",
  ":(top,glob)**/.gitattributes",
  ":(top,glob).review-gate/**",
];

/**
 * Read the rules of a ref update whose range starts at `base`.
 *
 * @param runner the subprocess seam
 * @param at the repository, the environment, the range's `base` (a commit on the remote or the
 *   empty tree) and the pushed commit `to`, and how to name the base for people
 * @throws {ConfigError} an invalid user config or variable, or an invalid config or acks file on
 *   the remote's side (the team's to fix); {@linkcode import("../../base/errors.ts").GitError} when
 *   git cannot read the base
 */
export async function pushRulesAt(
  runner: Runner,
  at: {
    repo: Repo;
    env: Record<string, string | undefined>;
    /** How the user config is read (lib/gates/pre_push/user_config.ts). */
    user: PushUserConfig;
    base: string;
    to: string;
    label: string;
    /** Asks the remote for its default branch, at most once per push (remote_refs.ts). */
    defaultBranch: () => Promise<DefaultBranch>;
  },
): Promise<PushRules> {
  const { repo, env, base, user } = at;
  const resolved = await resolveRulesFrom(runner, repo, base, at.label);
  // the repository's own info/attributes and .git/config are writable by the change's author
  const from = resolved.kind === "tree" ? { ...resolved, attributesFromTreeOnly: true } : resolved;
  const rules: RulesOptions = { from, untrusted: false };
  const onRemote = await loadWithUserConfig(
    user,
    async (userText) => (await loadRulesConfig({ runner, repo, env, ...rules, userText })).config,
  );
  const notes: string[] = [];
  const notApplied: string[] = [];
  if (user.kind === "held") {
    notes.push(heldUserConfigNote(user, onRemote.ignored).replace(/^review-gate: |\n$/g, ""));
  }
  const checked = await checkDefaultBranch(runner, {
    ...{ repo, env, user, base, baseConfig: onRemote.config, label: at.label },
    ask: at.defaultBranch,
  });
  const said: string[] = [];
  if (checked.note !== null) {
    notes.push(checked.note);
    said.push(`review-gate: ${checked.note}\n`);
  }
  const fromRemote = checked.config;
  let config = fromRemote;
  try {
    // the same user config as above: what differs is the worktree's file alone
    const worktree = await loadWithUserConfig(
      user,
      async (userText) => (await loadConfig({ root: repo.root, env, userText })).config,
    );
    config = stricterConfig(fromRemote, worktree.config);
    const ignored = ignoredRepoKeys(fromRemote, worktree.config, config);
    if (ignored.length > 0) {
      notes.push(
        `the worktree's ${REPO_CONFIG_FILE} may only make a push stricter; ignored: ${
          ignored.join(", ")
        }`,
      );
      notApplied.push(`${REPO_CONFIG_FILE} in the worktree (${ignored.join(", ")})`);
    }
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    notes.push(`the worktree's ${REPO_CONFIG_FILE} was ignored: ${error.message}`);
    notApplied.push(`${REPO_CONFIG_FILE} in the worktree (ignored, invalid: ${error.message})`);
  }
  const acks = await readAcks(runner, { kind: "tree", root: repo.root, rev: base });
  const changed = await changedRuleFiles(runner, repo.root, base, at.to);
  for (const [path, where] of changed) {
    if (path === REPO_CONFIG_FILE && where === "worktree") continue; // said above, key by key
    notApplied.push(`${path} (${where})`);
  }
  const warnFrom = config.gates.pre_push.mode === "warn"
    ? await warnModeFrom(runner, { repo, env, rules })
    : undefined;
  return {
    rules,
    config,
    acks,
    notes,
    notApplied,
    said,
    askedRemote: checked.asked,
    ...(warnFrom ? { warnFrom } : {}),
  };
}

/**
 * Which config chose `gates.pre_push.mode: "warn"`. The worktree's file can only make a push
 * stricter and the environment sets no mode, so warn comes from the base's file or the user
 * config: the base's file read alone tells them apart.
 */
async function warnModeFrom(
  runner: Runner,
  at: { repo: Repo; env: Record<string, string | undefined>; rules: RulesOptions },
): Promise<WarnModeFrom> {
  const repoOnly = await loadRulesConfig({ runner, ...at, ...at.rules, userText: null });
  return repoOnly.config.gates.pre_push.mode === "warn" ? "repo" : "user";
}

/**
 * The rule files that differ from `base` in the pushed commit `to` ("pushed") or, beyond that, in
 * the worktree, untracked ones included ("worktree"). Three git calls with pathspecs: cheap.
 *
 * @returns path → where it differs, in path order
 */
async function changedRuleFiles(
  runner: Runner,
  root: string,
  base: string,
  to: string,
): Promise<Map<string, "pushed" | "worktree">> {
  const names = async (args: string[]) => {
    const r = await runGit(runner, root, [...args, "--", ...RULE_PATHSPECS]);
    return r.code === 0
      ? new TextDecoder().decode(r.stdout).split("\n").filter((l) => l !== "")
      : [];
  };
  const out = new Map<string, "pushed" | "worktree">();
  for (const path of await names(["diff", "--name-only", "--no-renames", base, to])) {
    out.set(path, "pushed");
  }
  const worktree = [
    ...await names(["diff", "--name-only", "--no-renames", base]),
    ...await names(["ls-files", "--others", "--exclude-standard"]),
  ];
  for (const path of worktree) if (!out.has(path)) out.set(path, "worktree");
  return new Map([...out].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0));
}
