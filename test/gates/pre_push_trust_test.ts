/**
 * End to end: a push is judged by the rules the remote already has, never by the pushed commits'
 * own rules or the worktree's. Real `git push` into a local bare remote through the installed
 * hook, with the fake provider: a pushed `.gitattributes` that marks `*.ts -diff` (or
 * `linguist-generated`, or `binary`) does not hide the pushed bug, and is named as a rule change
 * not applied; an uncommitted `.review-gate.json` that excludes `src/**`, lowers `fail_on`, turns
 * the gate off or loosens `on_error` does not loosen the push; one that is stricter applies; the
 * user's own config outside the repository still decides.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  addTokenLine,
  blockingScenario,
  type GateSandbox,
  gitOk,
  makeGateSandbox,
  providerCalls,
  readFakeLog,
  remoteRef,
  runCli,
  runGit,
  scenario,
  writeRepoConfig,
} from "./_gates.ts";

const BUG = "export function x(a: number[]) { return a[a.length]; } // PUSHED_BUG\n";

/** Commit `.gitattributes` with `line`, a new src/x.ts with a bug, and line 1 of src/app.ts changed. */
async function commitHiddenBug(sb: GateSandbox, line: string, token = "HIDDEN"): Promise<void> {
  const root = sb.repo.root;
  await Deno.writeTextFile(join(root, ".gitattributes"), `${line}\n`);
  await Deno.writeTextFile(join(root, "src", "x.ts"), BUG);
  await addTokenLine(root, token);
  await gitOk(sb, ["add", "-A"]);
  await gitOk(sb, ["commit", "-q", "-m", "hide a bug behind .gitattributes"]);
}

async function installed(): Promise<GateSandbox> {
  const sb = await makeGateSandbox();
  const r = await runCli(sb, ["install", "--git"]);
  assert.equal(r.code, 0, r.stderr);
  return sb;
}

for (const line of ["*.ts -diff", "*.ts linguist-generated", "src/** binary"]) {
  Deno.test(`pre-push: a pushed .gitattributes "${line}" does not hide the pushed bug, and is named`, async () => {
    const sb = await installed();
    try {
      await gitOk(sb, ["switch", "-q", "-c", "b"]);
      await commitHiddenBug(sb, line);
      const r = await runGit(sb, ["push", "origin", "b"], { env: scenario("valid") });
      assert.equal(r.code, 0, r.stderr);
      const log = await readFakeLog(sb);
      assert.equal(log.length, 1, r.stderr);
      assert.match(log[0].stdin ?? "", /PUSHED_BUG/, "src/x.ts reaches the model");
      assert.doesNotMatch(r.stderr, /excluded by rule/);
      assert.match(
        r.stderr,
        /this push is judged by the rules origin already has; not applied to it: \.gitattributes \(pushed\)/,
      );
      assert.match(r.stderr, /refs\/heads\/b \(1 commit\): approved/);

      // the same kind of push with a blocking answer is blocked
      await gitOk(sb, ["switch", "-q", "-c", "c", "main"]);
      await commitHiddenBug(sb, line, "AGAIN");
      const blocked = await runGit(sb, ["push", "origin", "c"], {
        env: scenario(await blockingScenario(sb)),
      });
      assert.notEqual(blocked.code, 0, blocked.stderr);
      assert.match(blocked.stderr, /push blocked: 1 blocking finding in refs\/heads\/c/);
    } finally {
      await sb.cleanup();
    }
  });
}

Deno.test("pre-push: an update of a branch is judged by the remote's old tip's rules", async () => {
  const sb = await installed();
  try {
    await commitHiddenBug(sb, "*.ts -diff");
    const r = await runGit(sb, ["push", "origin", "main"], {
      env: scenario(await blockingScenario(sb)),
    });
    assert.notEqual(r.code, 0, r.stderr);
    assert.match(r.stderr, /push blocked: 1 blocking finding in refs\/heads\/main/);
    assert.match(r.stderr, /not applied to it: \.gitattributes \(pushed\)/);
    assert.match((await readFakeLog(sb))[0].stdin ?? "", /PUSHED_BUG/);
  } finally {
    await sb.cleanup();
  }
});

/** Worktree configs (uncommitted) that would loosen the push; each must still review and block. */
const LOOSER: [string, unknown, RegExp][] = [
  ['exclude ["src/**"]', { exclude: ["src/**"] }, /\(exclude\)/],
  ["gates.pre_push.enabled false", { gates: { pre_push: { enabled: false } } }, /enabled/],
  ["fail_on critical", { fail_on: "critical" }, /fail_on/],
  ["categories [style]", { categories: ["style"] }, /categories/],
  ["an invalid file", { fail_on: "nonsense" }, /\(ignored, invalid: /],
];

for (const [name, config, named] of LOOSER) {
  Deno.test(`pre-push: an uncommitted .review-gate.json with ${name} does not loosen the push`, async () => {
    const sb = await installed();
    try {
      await addTokenLine(sb.repo.root, "LOOSER");
      await gitOk(sb, ["commit", "-q", "-am", "bug"]);
      await writeRepoConfig(sb, config);
      const r = await runGit(sb, ["push", "origin", "main"], {
        env: scenario(await blockingScenario(sb)),
      });
      assert.notEqual(r.code, 0, r.stderr);
      assert.match(r.stderr, /push blocked: 1 blocking finding in refs\/heads\/main/);
      assert.match(r.stderr, /not applied to it: \.review-gate\.json in the worktree /);
      assert.match(r.stderr, named);
      assert.equal(await providerCalls(sb), 1);
      assert.equal(await remoteRef(sb, "refs/heads/main") === null, false);
    } finally {
      await sb.cleanup();
    }
  });
}

Deno.test("pre-push: a worktree -diff mark and an on_error loosening do not lower the push", async () => {
  const sb = await installed();
  try {
    // the team blocks when the review cannot run, on the remote
    await writeRepoConfig(sb, { gates: { pre_push: { on_error: "block" } } });
    await gitOk(sb, ["add", ".review-gate.json"]);
    await gitOk(sb, ["commit", "-q", "-m", "team config"]);
    const first = await runGit(sb, ["push", "origin", "main"], { env: { REVIEW_GATE: "0" } });
    assert.equal(first.code, 0, first.stderr);
    await addTokenLine(sb.repo.root, "ERR");
    await gitOk(sb, ["commit", "-q", "-am", "bug"]);
    await writeRepoConfig(sb, { gates: { pre_push: { on_error: "allow" } } });
    await Deno.writeTextFile(join(sb.repo.root, ".gitattributes"), "*.ts -diff\n");
    const r = await runGit(sb, ["push", "origin", "main"], { env: scenario("error") });
    assert.notEqual(r.code, 0, r.stderr);
    assert.match(r.stderr, /was NOT reviewed/);
    assert.match(r.stderr, /gates\.pre_push\.on_error is "block"/);
    assert.match(r.stderr, /\.gitattributes \(worktree\)/);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("pre-push: a stricter worktree config applies; the user's own config still switches the gate off", async () => {
  const sb = await installed();
  try {
    await addTokenLine(sb.repo.root, "STRICT");
    await gitOk(sb, ["commit", "-q", "-am", "bug"]);
    // stricter: on_error block in the worktree makes a failed review block
    await writeRepoConfig(sb, { gates: { pre_push: { on_error: "block" } } });
    const strict = await runGit(sb, ["push", "origin", "main"], { env: scenario("error") });
    assert.notEqual(strict.code, 0, strict.stderr);
    assert.match(strict.stderr, /gates\.pre_push\.on_error is "block"/);
    await writeRepoConfig(sb, null);
    // the user's config outside the repository is trusted
    const disabled = await runCli(sb, ["gate", "disable", "pre-push", "--user"]);
    assert.equal(disabled.code, 0, disabled.stderr);
    const off = await runGit(sb, ["push", "origin", "main"], { env: scenario("valid") });
    assert.equal(off.code, 0, off.stderr);
    assert.match(off.stderr, /refs\/heads\/main was NOT reviewed: the pre-push gate is disabled/);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("pre-push: pushed commits cannot acknowledge their own finding", async () => {
  const sb = await installed();
  try {
    const blocking = scenario(await blockingScenario(sb));
    await gitOk(sb, ["switch", "-q", "-c", "b"]);
    await addTokenLine(sb.repo.root, "SELF_ACK");
    await gitOk(sb, ["commit", "-q", "-am", "bug"]);
    const blocked = await runGit(sb, ["push", "origin", "b"], { env: blocking });
    assert.notEqual(blocked.code, 0, blocked.stderr);
    const id = /review-gate ack ([0-9a-f]{12}) --reason/.exec(blocked.stderr)?.[1];
    assert.ok(id, blocked.stderr);
    const ack = await runCli(sb, ["ack", id, "--reason", "the pushed commit says so"]);
    assert.equal(ack.code, 0, ack.stderr);
    await gitOk(sb, ["add", ".review-gate/acks.json"]);
    await gitOk(sb, ["commit", "-q", "-m", "acknowledge it in the same push"]);
    const r = await runGit(sb, ["push", "origin", "b"], { env: blocking });
    assert.notEqual(r.code, 0, r.stderr);
    assert.match(r.stderr, /push blocked: 1 blocking finding in refs\/heads\/b \(2 commits\)/);
    assert.match(r.stderr, /not applied to it: \.review-gate\/acks\.json \(pushed\)/);
    assert.equal(await remoteRef(sb, "refs/heads/b"), null);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("pre-push: the repository's own .git/info/attributes and git config do not hide pushed files", async () => {
  const sb = await installed();
  try {
    await Deno.mkdir(join(sb.repo.root, ".git", "info"), { recursive: true });
    await Deno.writeTextFile(join(sb.repo.root, ".git", "info", "attributes"), "*.ts -diff\n");
    const attributes = join(sb.dir, "attributes");
    await Deno.writeTextFile(attributes, "*.ts linguist-generated\n");
    await gitOk(sb, ["config", "core.attributesFile", attributes]);
    await gitOk(sb, ["switch", "-q", "-c", "b"]);
    await Deno.writeTextFile(join(sb.repo.root, "src", "x.ts"), BUG);
    await addTokenLine(sb.repo.root, "INFO");
    await gitOk(sb, ["add", "-A"]);
    await gitOk(sb, ["commit", "-q", "-m", "bug"]);
    const r = await runGit(sb, ["push", "origin", "b"], {
      env: scenario(await blockingScenario(sb)),
    });
    assert.notEqual(r.code, 0, r.stderr);
    assert.match(r.stderr, /push blocked: 1 blocking finding in refs\/heads\/b/);
    assert.match((await readFakeLog(sb))[0].stdin ?? "", /PUSHED_BUG/);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("pre-push: your global git attributes file (an agent can write it mid-turn) does not hide a pushed bug", async () => {
  const sb = await installed();
  try {
    const dir = join(sb.env.XDG_CONFIG_HOME, "git");
    await Deno.mkdir(dir, { recursive: true });
    await Deno.writeTextFile(join(dir, "attributes"), "src/** -diff linguist-generated\n");
    await gitOk(sb, ["switch", "-q", "-c", "g"]);
    await addTokenLine(sb.repo.root, "GLOBAL_ATTR_BUG");
    await gitOk(sb, ["commit", "-q", "-am", "bug"]);
    const r = await runGit(sb, ["push", "origin", "g"], {
      env: scenario(await blockingScenario(sb)),
    });
    assert.notEqual(r.code, 0, r.stderr);
    assert.match(r.stderr, /push blocked: 1 blocking finding in refs\/heads\/g/);
    assert.doesNotMatch(r.stderr, /excluded by rule/);
  } finally {
    await sb.cleanup();
  }
});

Deno.test("pre-push: config on the push's own command line or environment does not hide the diff", async (t) => {
  const sb = await installed();
  try {
    const ways: [string, string[], Record<string, string>][] = [
      ["git -c core.bigFileThreshold=1 push", ["-c", "core.bigFileThreshold=1"], {}],
      ["GIT_CONFIG_COUNT=1 … core.bigFileThreshold", [], {
        GIT_CONFIG_COUNT: "1",
        GIT_CONFIG_KEY_0: "core.bigFileThreshold",
        GIT_CONFIG_VALUE_0: "1",
      }],
    ];
    for (const [name, config, env] of ways) {
      await t.step(name, async () => {
        const branch = `big-${config.length}`;
        await gitOk(sb, ["switch", "-q", "-c", branch, "main"]);
        await addTokenLine(sb.repo.root, `BIG_${config.length}`);
        await gitOk(sb, ["commit", "-q", "-am", "bug"]);
        const r = await runGit(sb, [...config, "push", "origin", branch], {
          env: { ...scenario(await blockingScenario(sb)), ...env },
        });
        assert.notEqual(r.code, 0, r.stderr);
        assert.match(
          r.stderr,
          new RegExp(`push blocked: 1 blocking finding in refs/heads/${branch}`),
        );
        const log = await readFakeLog(sb);
        assert.match(
          log.at(-1)?.stdin ?? "",
          new RegExp(`\\+export const t = "BIG_${config.length}"`),
        );
      });
    }
  } finally {
    await sb.cleanup();
  }
});
