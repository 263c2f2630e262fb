import assert from "node:assert/strict";
import { join } from "node:path";
import { runProcess } from "../../exec/exec.ts";
import { EMPTY_TREE } from "../../git/repo.ts";
import { type PushRangeOptions, type PushRangeResult, resolvePushRange } from "./range.ts";
import { parsePushLines, type PushUpdate } from "./stdin.ts";
import { commitFile, git, makeRepo } from "../../git/_testing.ts";
import { NOT_SEPARATED_NOTE } from "./merge_base_tree.ts";
import { askRemote, rememberedRemote } from "./remote_refs.ts";

const runner = runProcess;

function update(
  localRef: string,
  localOid: string,
  remoteRef: string,
  remoteOid: string,
): PushUpdate {
  return parsePushLines(`${localRef} ${localOid} ${remoteRef} ${remoteOid}\n`).updates[0];
}

function range(result: PushRangeResult) {
  assert.equal(result.kind, "range", JSON.stringify(result));
  return (result as Extract<PushRangeResult, { kind: "range" }>).range;
}

/** {@linkcode resolvePushRange} (remote "upstream" unless given) that must give a range. */
async function pushRange(
  repo: string,
  options: Omit<PushRangeOptions, "repo" | "remote"> & { remote?: string },
) {
  return range(await resolvePushRange(runner, { repo, remote: "upstream", ...options }));
}

/** repo with `main` pushed to a bare remote named "upstream" (never origin). */
async function withRemote(
  fn: (ctx: { dir: string; repo: string; bare: string; base: string }) => Promise<void>,
  objectFormat: "sha1" | "sha256" = "sha1",
) {
  const { dir, repo, cleanup } = await makeRepo({ objectFormat });
  try {
    const bare = join(dir, "remote.git");
    await git(dir, ["init", "-q", "--bare", `--object-format=${objectFormat}`, bare]);
    await git(repo, ["remote", "add", "upstream", bare]);
    await git(repo, ["push", "-q", "upstream", "main"]);
    await fn({ dir, repo, bare, base: await git(repo, ["rev-parse", "HEAD"]) });
  } finally {
    await cleanup();
  }
}

Deno.test("resolvePushRange() reviews remote..local when the remote id is known", async () => {
  await withRemote(async ({ repo, base }) => {
    const tip = await commitFile(repo, "a.txt", "a\n", "a");
    const r = await pushRange(repo, {
      update: update("refs/heads/main", tip, "refs/heads/main", base),
    });
    assert.deepEqual(r, { from: base, to: tip, base, commits: 1, truncated: false, notes: [] });
  });
});

Deno.test("resolvePushRange() reviews a new branch from where it left the remote's refs", async () => {
  await withRemote(async ({ repo, base }) => {
    await git(repo, ["switch", "-q", "-c", "feature"]);
    await commitFile(repo, "a.txt", "a\n", "a");
    const tip = await commitFile(repo, "b.txt", "b\n", "b");
    const zero = "0".repeat(40);
    const r = await pushRange(repo, {
      update: update("refs/heads/feature", tip, "refs/heads/feature", zero),
    });
    assert.deepEqual({ from: r.from, to: r.to, commits: r.commits }, {
      from: base,
      to: tip,
      commits: 2,
    });
    const head = await pushRange(repo, {
      update: update("HEAD", tip, "refs/heads/x", zero),
    });
    assert.equal(head.commits, 2, "HEAD:refs/heads/x resolves the same");
  });
});

Deno.test("resolvePushRange() skips deletions, tags, and pushes with nothing new", async () => {
  await withRemote(async ({ repo, base }) => {
    const zero = "0".repeat(40);
    const del = await resolvePushRange(runner, {
      repo,
      remote: "upstream",
      update: update("(delete)", zero, "refs/heads/old", base),
    });
    assert.deepEqual(del, { kind: "skip", reason: "deletes refs/heads/old" });
    await git(repo, ["tag", "-a", "-m", "v1", "v1"]);
    const tagOid = await git(repo, ["rev-parse", "v1"]);
    const tag = await resolvePushRange(runner, {
      repo,
      remote: "upstream",
      update: update("refs/tags/v1", tagOid, "refs/tags/v1", zero),
    });
    assert.equal(tag.kind, "skip");
    const same = await resolvePushRange(runner, {
      repo,
      remote: "upstream",
      update: update("refs/heads/main", base, "refs/heads/copy", zero),
    });
    assert.deepEqual(same, {
      kind: "skip",
      reason: "nothing new to review (every commit is already on the remote)",
      said: true,
      askedRemote: true,
    });
  });
});

Deno.test("resolvePushRange() peels an annotated tag when tags are reviewed", async () => {
  await withRemote(async ({ repo, base }) => {
    const tip = await commitFile(repo, "a.txt", "a\n", "a");
    await git(repo, ["tag", "-a", "-m", "v2", "v2"]);
    const tagOid = await git(repo, ["rev-parse", "v2"]);
    assert.notEqual(tagOid, tip);
    const r = await pushRange(repo, {
      reviewTags: true,
      update: update("refs/tags/v2", tagOid, "refs/tags/v2", "0".repeat(40)),
    });
    assert.deepEqual({ from: r.from, to: r.to }, { from: base, to: tip });
  });
});

Deno.test("resolvePushRange() handles a force push over commits not present locally", async () => {
  await withRemote(async ({ repo, base }) => {
    const tip = await commitFile(repo, "a.txt", "a\n", "a");
    const unknown = "e".repeat(40);
    const r = await pushRange(repo, {
      update: update("refs/heads/main", tip, "refs/heads/main", unknown),
    });
    assert.deepEqual({ from: r.from, to: r.to, commits: r.commits }, {
      from: base,
      to: tip,
      commits: 1,
    });
    assert.match(r.notes[0], /is not here/);
  });
});

Deno.test("resolvePushRange() past maxCommits still reviews every new commit's net change and says so", async () => {
  await withRemote(async ({ repo, base }) => {
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push(await commitFile(repo, `f${i}.txt`, `${i}\n`, `c${i}`));
    const r = await pushRange(repo, {
      maxCommits: 2,
      update: update("refs/heads/main", ids[3], "refs/heads/main", "0".repeat(40)),
    });
    assert.deepEqual({ from: r.from, to: r.to, commits: r.commits, truncated: r.truncated }, {
      from: base,
      to: ids[3],
      commits: 4,
      truncated: true,
    });
    assert.match(r.notes.join("\n"), /4 new commits \(more than max_commits, 2\).*one diff/);
  });
});

Deno.test("resolvePushRange() on a push to a URL excludes every remote-tracking ref, root → empty tree", async () => {
  const { dir, repo, cleanup } = await makeRepo();
  try {
    const tip = await git(repo, ["rev-parse", "HEAD"]);
    const url = join(dir, "elsewhere.git");
    const r = await pushRange(repo, {
      remote: url,
      update: update("refs/heads/main", tip, "refs/heads/main", "0".repeat(40)),
    });
    assert.deepEqual({ from: r.from, to: r.to, commits: r.commits }, {
      from: EMPTY_TREE.sha1,
      to: tip,
      commits: 1,
    });
    assert.equal(
      await git(repo, ["hash-object", "-t", "tree", "--stdin"], { stdin: "" }),
      EMPTY_TREE.sha1,
    );
  } finally {
    await cleanup();
  }
});

Deno.test("resolvePushRange() works in a SHA-256 repository", async () => {
  await withRemote(async ({ repo, bare, base }) => {
    assert.equal(base.length, 64);
    const tip = await commitFile(repo, "a.txt", "a\n", "a");
    const r = await pushRange(repo, {
      update: update("refs/heads/main", tip, "refs/heads/main", base),
    });
    assert.deepEqual({ from: r.from, to: r.to }, { from: base, to: tip });
    const viaUrl = await pushRange(repo, {
      remote: bare,
      update: update("refs/heads/main", tip, "refs/heads/n", "0".repeat(64)),
    });
    assert.equal(viaUrl.from, base, "a push to the remote's URL excludes its tracking refs");
    await git(repo, ["update-ref", "-d", "refs/remotes/upstream/main"]);
    const fresh = await pushRange(repo, {
      update: update("refs/heads/main", tip, "refs/heads/n", "0".repeat(64)),
    });
    assert.deepEqual({ from: fresh.from, commits: fresh.commits }, {
      from: EMPTY_TREE.sha256,
      commits: 2,
    });
    assert.equal(
      await git(repo, ["hash-object", "-t", "tree", "--stdin"], { stdin: "" }),
      EMPTY_TREE.sha256,
    );
  }, "sha256");
});

/** Files changed between `from` (commit or tree) and `to`, sorted. */
async function changedFiles(repo: string, from: string, to: string): Promise<string[]> {
  return (await git(repo, ["diff", "--name-only", from, to])).split("\n").filter(Boolean).sort();
}

/** On `main` (already pushed at `base`): `feature` gets f.txt, main gets m.txt and is pushed. */
async function divergeAndPushMain(repo: string, mainFile = "m.txt"): Promise<string> {
  await git(repo, ["switch", "-q", "-c", "feature"]);
  await commitFile(repo, "f.txt", "feature\n", "feature work");
  await git(repo, ["switch", "-q", "main"]);
  const main = await commitFile(repo, mainFile, "main\n", "main work");
  await git(repo, ["push", "-q", "upstream", "main"]);
  await git(repo, ["switch", "-q", "feature"]);
  return main;
}

Deno.test("resolvePushRange() leaves out main's pushed changes merged into a new branch", async () => {
  await withRemote(async ({ repo, base }) => {
    await divergeAndPushMain(repo);
    await git(repo, ["merge", "-q", "--no-ff", "-m", "merge main", "main"]);
    const tip = await commitFile(repo, "g.txt", "more\n", "more feature work");
    const r = await pushRange(repo, {
      update: update("refs/heads/feature", tip, "refs/heads/feature", "0".repeat(40)),
    });
    assert.deepEqual(await changedFiles(repo, base, tip), ["f.txt", "g.txt", "m.txt"]);
    assert.deepEqual(await changedFiles(repo, r.from, r.to), ["f.txt", "g.txt"]);
    assert.equal(r.commits, 3);
    assert.match(r.notes.join("\n"), /Left out changes already on "upstream" brought in by merges/);
  });
});

Deno.test("resolvePushRange() leaves out merged pushed changes when the remote id is known", async () => {
  await withRemote(async ({ repo }) => {
    await divergeAndPushMain(repo);
    await git(repo, ["push", "-q", "upstream", "feature"]);
    const pushedFeature = await git(repo, ["rev-parse", "feature"]);
    // main advances twice more (two merges of main), feature keeps working in between.
    await git(repo, ["merge", "-q", "--no-ff", "-m", "merge main", "main"]);
    await commitFile(repo, "g.txt", "g\n", "g");
    await git(repo, ["switch", "-q", "main"]);
    await commitFile(repo, "m2.txt", "m2\n", "m2");
    await git(repo, ["push", "-q", "upstream", "main"]);
    await git(repo, ["switch", "-q", "feature"]);
    await git(repo, ["merge", "-q", "--no-ff", "-m", "merge main again", "main"]);
    const tip = await commitFile(repo, "h.txt", "h\n", "h");
    const r = await pushRange(repo, {
      update: update("refs/heads/feature", tip, "refs/heads/feature", pushedFeature),
    });
    assert.deepEqual(await changedFiles(repo, r.from, r.to), ["g.txt", "h.txt"]);
    assert.equal(r.commits, 4, "the merges and g, h; not main's commits");
    assert.equal(r.truncated, false);
    assert.match(r.notes.join("\n"), /\(2 merged commits\)/);
  });
});

Deno.test("resolvePushRange() shows a conflict resolution of a new branch as its own change", async () => {
  await withRemote(async ({ repo }) => {
    const tip = await conflictingMerge(repo, false);
    const r = await pushRange(repo, {
      update: update("refs/heads/feature", tip, "refs/heads/feature", "0".repeat(40)),
    });
    // The base is the fork point: merging it with main is clean; the resolution is the change.
    assert.deepEqual(await changedFiles(repo, r.from, r.to), ["README.md"]);
    assert.equal(await git(repo, ["show", `${r.from}:README.md`]), "main");
  });
});

Deno.test("resolvePushRange() reviews the whole range with a note when the merge conflicts", async () => {
  await withRemote(async ({ repo }) => {
    const tip = await conflictingMerge(repo, true);
    const pushed = await git(repo, ["rev-parse", "upstream/feature"]);
    const r = await pushRange(repo, {
      update: update("refs/heads/feature", tip, "refs/heads/feature", pushed),
    });
    assert.equal(r.from, pushed, "falls back to remote..local");
    assert.deepEqual(await changedFiles(repo, r.from, r.to), ["README.md", "m.txt"]);
    assert.deepEqual(r.notes, [NOT_SEPARATED_NOTE]);
  });
});

/** feature and main both change README.md; main is pushed (feature too with `pushFeature`). */
async function conflictingMerge(repo: string, pushFeature: boolean): Promise<string> {
  await git(repo, ["switch", "-q", "-c", "feature"]);
  await commitFile(repo, "README.md", "feature\n", "feature readme");
  if (pushFeature) await git(repo, ["push", "-q", "upstream", "feature"]);
  await git(repo, ["switch", "-q", "main"]);
  await commitFile(repo, "README.md", "main\n", "main readme");
  await commitFile(repo, "m.txt", "main\n", "main work");
  await git(repo, ["push", "-q", "upstream", "main"]);
  await git(repo, ["switch", "-q", "feature"]);
  await git(repo, ["merge", "-q", "-m", "merge main", "main"]).catch(() => {});
  await Deno.writeTextFile(join(repo, "README.md"), "both\n");
  await git(repo, ["add", "README.md"]);
  await git(repo, ["commit", "-q", "--no-edit"]);
  return await git(repo, ["rev-parse", "HEAD"]);
}

Deno.test("resolvePushRange() keeps the range unchanged for a merge of local branches", async () => {
  await withRemote(async ({ repo, base }) => {
    await git(repo, ["switch", "-q", "-c", "topic"]);
    await commitFile(repo, "t.txt", "t\n", "topic");
    await git(repo, ["switch", "-q", "main"]);
    await commitFile(repo, "a.txt", "a\n", "a");
    await git(repo, ["merge", "-q", "--no-ff", "-m", "merge topic", "topic"]);
    const tip = await git(repo, ["rev-parse", "HEAD"]);
    const r = await pushRange(repo, {
      update: update("refs/heads/main", tip, "refs/heads/main", base),
    });
    assert.deepEqual(r, { from: base, to: tip, base, commits: 3, truncated: false, notes: [] });
  });
});

Deno.test("resolvePushRange() reviews a rebased force push as our commits, not upstream's", async () => {
  await withRemote(async ({ repo }) => {
    await git(repo, ["switch", "-q", "-c", "feature"]);
    await commitFile(repo, "f.txt", "feature\n", "feature work");
    await git(repo, ["push", "-q", "upstream", "feature"]);
    const oldTip = await git(repo, ["rev-parse", "HEAD"]);
    await git(repo, ["switch", "-q", "main"]);
    const main = await commitFile(repo, "m.txt", "main\n", "main work");
    await git(repo, ["push", "-q", "upstream", "main"]);
    await git(repo, ["switch", "-q", "feature"]);
    await git(repo, ["rebase", "-q", "main"]);
    const tip = await git(repo, ["rev-parse", "HEAD"]);
    const r = await pushRange(repo, {
      update: update("refs/heads/feature", tip, "refs/heads/feature", oldTip),
    });
    assert.equal(r.from, main);
    assert.deepEqual(await changedFiles(repo, r.from, r.to), ["f.txt"]);
    assert.equal(r.commits, 1);
    assert.match(r.notes.join("\n"), /Force push over refs\/heads\/feature/);
  });
});

Deno.test("resolvePushRange() on a push to an unknown URL never counts another remote's commits as on the target", async () => {
  await withRemote(async ({ dir, repo, bare, base }) => {
    // A contributor's fork, fetched as "contrib": its commit is on a remote-tracking ref, not on upstream.
    const fork = join(dir, "fork");
    await git(dir, ["clone", "-q", "-b", "main", bare, fork]);
    const theirs = await commitFile(fork, "c.txt", "c\n", "contrib");
    await git(repo, ["remote", "add", "contrib", fork]);
    await git(repo, ["fetch", "-q", "contrib"]);
    const zero = "0".repeat(40);
    const elsewhere = await resolvePushRange(runner, {
      repo,
      remote: join(dir, "elsewhere.git"),
      update: update("refs/remotes/contrib/main", theirs, "refs/heads/feature", zero),
    });
    assert.equal(elsewhere.kind, "skip");
    assert.equal((elsewhere as { notReviewed?: boolean }).notReviewed, true);
    assert.equal((elsewhere as { unproven?: boolean }).unproven, true, "on_error applies");
    assert.match(
      (elsewhere as { reason: string }).reason,
      /could not ask \/\S*elsewhere\.git which commits it has \(git ls-remote: /,
    );
    // an empty repository at that URL has none of it: the whole history is reviewed
    await git(dir, ["init", "-q", "--bare", join(dir, "empty.git")]);
    const empty = await pushRange(repo, {
      remote: join(dir, "empty.git"),
      update: update("refs/remotes/contrib/main", theirs, "refs/heads/feature", zero),
    });
    assert.equal(empty.commits, 2);
    assert.equal(empty.from, EMPTY_TREE.sha1);
    // upstream's URL, as a path and as a file:// URL: only upstream's refs count, the fork's commit is reviewed
    for (const url of [bare, `file://${bare}`, `${bare}/`]) {
      const r = await pushRange(repo, {
        remote: url,
        update: update("refs/remotes/contrib/main", theirs, "refs/heads/feature", zero),
      });
      assert.deepEqual({ from: r.from, to: r.to, commits: r.commits }, {
        from: base,
        to: theirs,
        commits: 1,
      }, url);
    }
  });
});

Deno.test("resolvePushRange() never takes a forged remote-tracking ref as being on the remote", async () => {
  await withRemote(async ({ repo, base }) => {
    await git(repo, ["switch", "-q", "-c", "b"]);
    const tip = await commitFile(repo, "x.ts", "bug\n", "bug");
    await git(repo, ["update-ref", "refs/remotes/upstream/x", "HEAD"]);
    const zero = "0".repeat(40);
    const r = await pushRange(repo, { update: update("refs/heads/b", tip, "refs/heads/b", zero) });
    assert.deepEqual({ from: r.from, to: r.to, base: r.base, commits: r.commits }, {
      from: base,
      to: tip,
      base,
      commits: 1,
    });
    assert.equal(r.askedRemote, true);
    assert.match(
      r.notes.join("\n"),
      /1 commit that remote-tracking refs of "upstream" list is not on it/,
    );
  });
});

Deno.test("resolvePushRange() reviews the commits of a stale remote-tracking ref (deleted on the remote, not pruned)", async () => {
  await withRemote(async ({ repo, bare, base }) => {
    await git(repo, ["switch", "-q", "-c", "side"]);
    const side = await commitFile(repo, "s.ts", "side\n", "side");
    await git(repo, ["push", "-q", "upstream", "side"]);
    await git(bare, ["update-ref", "-d", "refs/heads/side"]); // deleted on the remote
    await git(repo, ["switch", "-q", "-c", "b"]);
    const tip = await commitFile(repo, "x.ts", "bug\n", "bug");
    const zero = "0".repeat(40);
    const copy = await resolvePushRange(runner, {
      repo,
      remote: "upstream",
      update: update("refs/heads/side", side, "refs/heads/copy", zero),
    });
    assert.equal(copy.kind, "range", "never 'nothing new' for the stale ref's commit");
    const r = await pushRange(repo, { update: update("refs/heads/b", tip, "refs/heads/b", zero) });
    assert.equal(r.from, base);
    assert.equal(r.commits, 2);
    assert.deepEqual(await changedFiles(repo, r.from, r.to), ["s.ts", "x.ts"]);
  });
});

Deno.test("resolvePushRange() says NOT reviewed (unproven) when the remote cannot be asked, or hangs", async () => {
  await withRemote(async ({ dir, repo }) => {
    const zero = "0".repeat(40);
    const tip = await commitFile(repo, "x.ts", "bug\n", "bug");
    await git(repo, ["update-ref", "refs/remotes/upstream/x", "HEAD"]);
    const gone = await resolvePushRange(runner, {
      repo,
      remote: "upstream",
      url: join(dir, "no-such.git"),
      update: update("refs/heads/b", tip, "refs/heads/b", zero),
    });
    assert.equal(gone.kind, "skip");
    assert.equal((gone as { unproven?: boolean }).unproven, true);
    assert.match(
      (gone as { reason: string }).reason,
      /could not ask upstream which commits it has/,
    );
    // an ssh "remote" that never answers (no network: the command only sleeps)
    const ssh = join(dir, "slow-ssh.sh");
    await Deno.writeTextFile(ssh, "#!/bin/sh\nsleep 30\n");
    await Deno.chmod(ssh, 0o755);
    await git(repo, ["config", "core.sshCommand", ssh]);
    const started = Date.now();
    const slow = await resolvePushRange(runner, {
      repo,
      remote: "upstream",
      advertised: () => askRemote(runner, repo, "ssh://127.0.0.1/never.git", 700),
      update: update("refs/heads/b", tip, "refs/heads/b", zero),
    });
    assert.ok(Date.now() - started < 10_000, "bounded");
    assert.equal((slow as { unproven?: boolean }).unproven, true);
    assert.match((slow as { reason: string }).reason, /no answer in 1 s/);
  });
});

Deno.test("resolvePushRange() says NOT reviewed when the remote moved to commits not fetched and tracking refs claim ours", async () => {
  await withRemote(async ({ dir, repo, bare }) => {
    const other = join(dir, "other");
    await git(dir, ["clone", "-q", "-b", "main", bare, other]);
    await commitFile(other, "o.txt", "o\n", "moved on");
    await git(other, ["push", "-q", "origin", "main"]);
    await git(repo, ["switch", "-q", "-c", "b"]);
    const tip = await commitFile(repo, "x.ts", "bug\n", "bug");
    const zero = "0".repeat(40);
    const r = await resolvePushRange(runner, {
      repo,
      remote: "upstream",
      update: update("refs/heads/b", tip, "refs/heads/b", zero),
    });
    assert.equal((r as { unproven?: boolean }).unproven, true, JSON.stringify(r));
    assert.match(
      (r as { reason: string }).reason,
      /upstream has moved on to commits that are not here.*\(git fetch upstream, then push again\)/,
    );
  });
});

Deno.test("resolvePushRange() does not leave out a merged forged ref's commits on a known update", async () => {
  await withRemote(async ({ repo, base }) => {
    await git(repo, ["switch", "-q", "-c", "side"]);
    const forged = await commitFile(repo, "bug.ts", "bug\n", "bug");
    await git(repo, ["update-ref", "refs/remotes/upstream/side", forged]);
    await git(repo, ["switch", "-q", "main"]);
    await commitFile(repo, "a.txt", "a\n", "a");
    await git(repo, ["merge", "-q", "--no-ff", "-m", "merge side", "side"]);
    const tip = await git(repo, ["rev-parse", "HEAD"]);
    const r = await pushRange(repo, {
      update: update("refs/heads/main", tip, "refs/heads/main", base),
    });
    assert.deepEqual(await changedFiles(repo, r.from, r.to), ["a.txt", "bug.ts"]);
  });
});

Deno.test("resolvePushRange() counts the remote's branches only, not another ref such as refs/pull/*", async () => {
  await withRemote(async ({ repo, base }) => {
    await git(repo, ["switch", "-q", "-c", "b"]);
    const tip = await commitFile(repo, "x.ts", "bug\n", "an outsider's pull request");
    await git(repo, ["push", "-q", "--no-verify", "upstream", "HEAD:refs/pull/1/head"]);
    const zero = "0".repeat(40);
    const r = await pushRange(repo, { update: update("refs/heads/b", tip, "refs/heads/b", zero) });
    assert.deepEqual({ from: r.from, commits: r.commits }, { from: base, commits: 1 });
  });
});

Deno.test("resolvePushRange() asks the remote once for every update of a push, and not at all for a known old tip", async () => {
  await withRemote(async ({ repo, base }) => {
    let asked = 0;
    const counting: typeof runner = (request) => {
      if (request.args.includes("ls-remote")) asked++;
      return runner(request);
    };
    const shared = rememberedRemote(counting, repo, "upstream");
    const tip = await commitFile(repo, "a.txt", "a\n", "a");
    await git(repo, ["update-ref", "refs/remotes/upstream/x", "HEAD"]);
    const known = await resolvePushRange(counting, {
      repo,
      remote: "upstream",
      advertised: shared,
      update: update("refs/heads/main", tip, "refs/heads/main", base),
    });
    assert.equal(known.kind, "range");
    assert.equal(asked, 0, "git's line is what the remote advertised");
    const zero = "0".repeat(40);
    for (const name of ["b", "c"]) {
      const r = await resolvePushRange(counting, {
        repo,
        remote: "upstream",
        advertised: shared,
        update: update(`refs/heads/${name}`, tip, `refs/heads/${name}`, zero),
      });
      assert.equal(r.kind, "range", "the forged upstream/x is not taken");
    }
    assert.equal(asked, 1);
  });
});
