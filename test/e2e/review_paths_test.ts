/**
 * End-to-end: `review PATH…` narrows a review to paths as `git diff -- PATH…` does (README
 * "Usage"): paths relative to the directory it runs in, globs as git's; the model is shown only
 * those files; the label, coverage and every output say the review was narrowed; a narrowed
 * verdict is cached under a key of its own (never the whole change's); a path outside the
 * repository is a usage error.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { FIXTURES, listRunDirs, makeSandbox, readFakeLog, readRunFolder, runCli } from "./_cli.ts";

const SCENARIO = `${FIXTURES}/fake/scenarios/first_changed_line.json`;

/** A repository with two changed files in two directories and an untracked third. */
async function changedSandbox() {
  const sandbox = await makeSandbox({
    "README.md": "# demo\n",
    "src/app.ts": "export const a = 1;\n",
    "lib/util.ts": "export const u = 1;\n",
  });
  await sandbox.repo.write("README.md", "# demo\n\nMore.\n");
  await sandbox.repo.write("src/app.ts", "export const a = 2;\n");
  await sandbox.repo.write("lib/util.ts", "export const u = 2;\n");
  await sandbox.repo.write("lib/new.md", "notes\n");
  return sandbox;
}

Deno.test("review PATH… shows the model only those paths, relative to the cwd, and says so everywhere", async () => {
  const sandbox = await changedSandbox();
  try {
    const src = join(sandbox.repo.root, "src");
    const out = await runCli(
      sandbox,
      ["review", "--json", "../lib/util.ts", "app.ts"],
      { cwd: src, scenario: SCENARIO },
    );
    assert.equal(out.code, 1, out.stdout + out.stderr);
    const envelope = JSON.parse(out.stdout);
    assert.deepEqual(envelope.coverage.paths, ["lib/util.ts", "src/app.ts"]);
    assert.equal(envelope.target.label, "working tree, narrowed to lib/util.ts, src/app.ts");
    // the first changed line of what the model was shown: lib/util.ts, not README.md
    assert.equal(envelope.answer.findings[0].file, "lib/util.ts");
    const [call] = await readFakeLog(sandbox);
    const prompt = call.stdin ?? call.argv.join(" ");
    assert.match(prompt, /lib\/util\.ts/);
    assert.match(prompt, /src\/app\.ts/);
    assert.doesNotMatch(prompt, /README\.md|lib\/new\.md/);

    // the run folder's record and review.md say it too
    const [dir] = await listRunDirs(sandbox);
    const folder = await readRunFolder(dir);
    assert.deepEqual(folder.run.coverage?.paths, ["lib/util.ts", "src/app.ts"]);
    assert.match(folder.reviewMd ?? "", /Narrowed to lib\/util\.ts, src\/app\.ts: the rest/);

    // the terminal, sarif, rdjson and github outputs say it
    const terminal = await runCli(sandbox, ["review", "app.ts"], { cwd: src, scenario: SCENARIO });
    assert.match(terminal.stdout, /Change: working tree, narrowed to src\/app\.ts/);
    assert.match(terminal.stdout, /Narrowed to src\/app\.ts: the rest of the change was not/);
    for (const format of ["sarif", "rdjson", "github"]) {
      const other = await runCli(sandbox, ["review", "--format", format, "app.ts"], {
        cwd: src,
        scenario: SCENARIO,
      });
      assert.match(other.stdout, /Narrowed to src\/app\.ts/, `${format}: ${other.stdout}`);
    }

    // a background job reviews the same paths, from the same directory
    const started = await runCli(sandbox, ["review", "--background", "--no-cache", "app.ts"], {
      cwd: src,
      scenario: SCENARIO,
    });
    assert.equal(started.code, 0, started.stdout + started.stderr);
    assert.match(
      started.stdout,
      /of working tree, narrowed to src\/app\.ts with claude \(auto\)\.\n/,
    );
    const id = started.stdout.split("\n")[0];
    await runCli(sandbox, ["status", id, "--wait", "--timeout", "120"], { cwd: src });
    const result = await runCli(sandbox, ["result", id, "--json"], { cwd: src });
    assert.deepEqual(JSON.parse(result.stdout).coverage.paths, ["src/app.ts"], result.stdout);
  } finally {
    await sandbox.cleanup();
  }
});

Deno.test("a narrowed verdict is cached under its own key: never the whole change's", async () => {
  const sandbox = await changedSandbox();
  try {
    await sandbox.repo.write("README.md", "# demo\n");
    await Deno.remove(join(sandbox.repo.root, "lib/new.md"));
    // the paths name every changed file: the same diff, still a narrowed review
    const args = ["review", "--json", "src", "lib"];
    const narrowed = await runCli(sandbox, args, { scenario: "valid" });
    assert.equal(narrowed.code, 0, narrowed.stdout + narrowed.stderr);
    assert.equal(JSON.parse(narrowed.stdout).cached, false);
    const again = await runCli(sandbox, args, { scenario: "valid" });
    assert.equal(JSON.parse(again.stdout).cached, true, "the same narrowed review is a hit");
    const whole = await runCli(sandbox, ["review", "--json"], { scenario: "valid" });
    const envelope = JSON.parse(whole.stdout);
    assert.equal(envelope.cached, false, "the whole change is not answered by a narrowed verdict");
    assert.equal(envelope.coverage.paths, undefined);
    assert.equal(envelope.target.label, "working tree");
    assert.equal((await readFakeLog(sandbox)).length, 2);
  } finally {
    await sandbox.cleanup();
  }
});

Deno.test("review PATH…: globs as git's, no match is nothing to review, outside is a usage error", async () => {
  const sandbox = await changedSandbox();
  try {
    const glob = await runCli(sandbox, ["review", "--json", "*.md"], { scenario: "valid" });
    assert.equal(glob.code, 0, glob.stdout + glob.stderr);
    const [call] = await readFakeLog(sandbox);
    const prompt = call.stdin ?? call.argv.join(" ");
    assert.match(prompt, /README\.md/);
    assert.match(prompt, /lib\/new\.md/);
    assert.doesNotMatch(prompt, /src\/app\.ts|lib\/util\.ts/);

    const none = await runCli(sandbox, ["review", "docs/"], { scenario: "valid" });
    assert.equal(none.code, 0, none.stdout + none.stderr);
    assert.match(none.stdout, /nothing to review \(working tree, narrowed to docs\)/);
    assert.match(none.stdout, /no uncommitted change matches the paths given/);

    const outside = await runCli(sandbox, ["review", "../elsewhere"], { scenario: "valid" });
    assert.equal(outside.code, 2, outside.stdout + outside.stderr);
    assert.match(outside.stderr, /"\.\.\/elsewhere" is outside the repository/);

    const magic = await runCli(sandbox, ["review", ":(exclude)src"], { scenario: "valid" });
    assert.equal(magic.code, 2, magic.stdout + magic.stderr);
    assert.match(magic.stderr, /Pathspec magic is not supported/);

    // a committed change narrowed the same way (--commit)
    await sandbox.repo.git("add", "-A");
    await sandbox.repo.git("commit", "-qm", "change");
    const commit = await runCli(sandbox, ["review", "--json", "--commit", "HEAD", "--", "src"], {
      scenario: "valid",
    });
    assert.equal(commit.code, 0, commit.stdout + commit.stderr);
    const envelope = JSON.parse(commit.stdout);
    assert.deepEqual(envelope.coverage.paths, ["src"]);
    assert.match(envelope.target.label, /^commit [0-9a-f]{7}, narrowed to src$/);
    assert.equal(envelope.coverage.reviewedLines, 2);
  } finally {
    await sandbox.cleanup();
  }
});
