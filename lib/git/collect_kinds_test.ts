/**
 * Every kind of change git can diff, in every direction, collected without an error and accounted
 * for: each changed path is listed once, and is either shown in the diff or named in coverage.
 * Trees are built through the index (`update-index --index-info`), so gitlinks need no real
 * submodule; a second test drives the same transitions through files on disk.
 */
import assert from "node:assert/strict";
import { runProcess } from "../exec/exec.ts";
import { collectChange } from "./collect.ts";
import { resolveRepo } from "./repo.ts";
import { makeTestRepo, type TestRepo } from "./test_repo.ts";
import type { Change } from "./types.ts";

const KINDS = ["text", "exec", "link", "gitlink", "binary", "utf16", "empty"] as const;
type Kind = typeof KINDS[number] | "absent";

const MODE: Record<Exclude<Kind, "absent">, string> = {
  text: "100644",
  exec: "100755",
  link: "120000",
  gitlink: "160000",
  binary: "100644",
  utf16: "100644",
  empty: "100644",
};

/** Unique content per path and side, so no two files look like a rename. */
function content(kind: Kind, path: string, side: "a" | "b"): Uint8Array {
  const tag = `${path} ${side}`;
  switch (kind) {
    case "text":
    case "exec":
      return new TextEncoder().encode(`first ${tag}\nsecond ${tag}\n`);
    case "link":
      return new TextEncoder().encode(`target/${tag.replaceAll(" ", "_")}`);
    case "binary":
      return new Uint8Array([0, 1, 2, ...new TextEncoder().encode(tag), 0]);
    case "utf16": {
      const text = `\ufeffline one ${tag}\r\nline two\r\n`;
      const out = new Uint8Array(text.length * 2);
      for (let i = 0; i < text.length; i++) {
        out[2 * i] = text.charCodeAt(i) & 0xff;
        out[2 * i + 1] = text.charCodeAt(i) >> 8;
      }
      return out;
    }
    default:
      return new Uint8Array();
  }
}

async function hashObject(repo: TestRepo, bytes: Uint8Array): Promise<string> {
  const out = await new Deno.Command("git", {
    args: ["hash-object", "-w", "--stdin"],
    cwd: repo.root,
    stdin: "piped",
    stdout: "piped",
  }).spawn();
  const writer = out.stdin.getWriter();
  await writer.write(bytes);
  await writer.close();
  return new TextDecoder().decode((await out.output()).stdout).trim();
}

/** Commit a tree holding `entries` (path → kind) on top of HEAD (or as a root commit). */
async function commitTree(
  repo: TestRepo,
  entries: [string, Kind][],
  side: "a" | "b",
): Promise<string> {
  const lines: string[] = [];
  for (const [path, kind] of entries) {
    if (kind === "absent") continue;
    const id = kind === "gitlink"
      ? (side === "a" ? "1" : "2").repeat(40)
      : await hashObject(repo, content(kind, path, side));
    lines.push(`${MODE[kind]} ${id}\t${path}`);
  }
  await repo.git("read-tree", "--empty");
  const child = new Deno.Command("git", {
    args: ["update-index", "--index-info"],
    cwd: repo.root,
    stdin: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(lines.join("\n") + "\n"));
  await writer.close();
  assert.equal((await child.status).code, 0);
  const tree = (await repo.git("write-tree")).trim();
  return (await repo.git("commit-tree", tree, "-m", side)).trim();
}

function expectedStatus(from: Kind, to: Kind): string {
  if (from === "absent") return "added";
  if (to === "absent") return "deleted";
  const type = (k: Kind) => (k === "link" ? "link" : k === "gitlink" ? "gitlink" : "file");
  return type(from) === type(to) ? "modified" : "typechange";
}

/** Every changed path is listed once and is shown in the diff or named in coverage, or both. */
function assertAccounted(change: Change): void {
  const paths = change.files.map((f) => f.path);
  assert.equal(new Set(paths).size, paths.length, "each path once");
  const omitted = new Set(change.coverage.omitted.map((o) => o.path));
  for (const file of change.files) {
    const header = `diff --git a/${file.oldPath ?? file.path} b/${file.path}\n`;
    const shown = change.diff.includes(header);
    assert.ok(shown || omitted.has(file.path), `${file.path} is neither shown nor named`);
    assert.equal(file.omitted !== undefined, !shown, `${file.path}: omitted iff not shown`);
  }
  assert.equal(change.coverage.status, omitted.size > 0 ? "partial" : "complete");
  const sides = new Set(change.files.flatMap((f) => [f.path, f.oldPath]));
  for (const header of change.diff.matchAll(/^diff --git a\/(\S+) b\//gm)) {
    assert.ok(sides.has(header[1]), `section for unlisted ${header[1]}`);
  }
}

Deno.test("collectChange() handles every transition between entry kinds, in every direction", async () => {
  const repo = await makeTestRepo();
  try {
    const kinds: Kind[] = ["absent", ...KINDS];
    const cases = kinds.flatMap((from) =>
      kinds.filter((to) => !(from === "absent" && to === "absent")).map((to) => ({
        from,
        to,
        path: `t/${from}-to-${to}`,
      }))
    );
    const a = await commitTree(repo, cases.map((c) => [c.path, c.from]), "a");
    await repo.git("reset", "-q", "--soft", a);
    const b = await commitTree(repo, cases.map((c) => [c.path, c.to]), "b");
    const r = await resolveRepo(runProcess, repo.root);
    for (
      const target of [
        { kind: "range" as const, from: a, to: b },
        { kind: "tree" as const, from: a, to: b, label: "trees" },
      ]
    ) {
      const change = await collectChange(runProcess, {
        repo: r,
        target,
        budgets: { perFileBytes: 1 << 20, totalBytes: 1 << 24 },
      });
      assertAccounted(change);
      const byPath = new Map(change.files.map((f) => [f.path, f]));
      const reasons = new Map<string, string[]>();
      for (const o of change.coverage.omitted) {
        reasons.set(o.path, [...reasons.get(o.path) ?? [], o.reason]);
      }
      for (const { from, to, path } of cases) {
        const file = byPath.get(path);
        if (from === to && from === "empty") {
          assert.equal(file, undefined, path);
          continue;
        }
        if ([from, to].includes("empty") && [from, to].includes("absent")) {
          // git pairs the added and the deleted empty file as an exact rename
          const rename = byPath.get("t/absent-to-empty");
          assert.deepEqual([rename?.status, rename?.oldPath], ["renamed", "t/empty-to-absent"]);
          continue;
        }
        assert.ok(file, `${path} is listed`);
        assert.equal(file.status, expectedStatus(from, to), path);
        const why = reasons.get(path) ?? [];
        const gitlink = from === "gitlink" || to === "gitlink";
        assert.equal(why.includes("submodule"), gitlink, `${path}: ${why}`);
        const plainBinary = from === "binary" || to === "binary";
        assert.equal(why.includes("binary"), plainBinary, `${path}: ${why}`);
        if ((from === "utf16" || to === "utf16") && !plainBinary && !gitlink) {
          assert.deepEqual(why, [], `${path} is shown decoded`);
          assert.match(file.encoding ?? "", /UTF-16LE/, path);
          const sides = [from, to].filter((k) => k === "utf16").length;
          assert.ok(change.diff.includes(`line one ${path} `), `${path} decoded text shown`);
          assert.ok(sides > 0);
        }
      }
    }
  } finally {
    await repo.cleanup();
  }
});

Deno.test("collectChange() handles type changes made on disk for the worktree and staged targets", async () => {
  const files = {
    "link-to-file": "x",
    "file-to-link": "plain\n",
    "exec-to-link": "#!/bin/sh\n",
    "link-to-utf16": "x",
    "utf16-to-link": "x",
  };
  const repo = await makeTestRepo({ "keep.txt": "k\n" });
  try {
    await Deno.symlink("keep.txt", `${repo.root}/link-to-file`);
    await Deno.symlink("keep.txt", `${repo.root}/link-to-utf16`);
    await repo.write("file-to-link", files["file-to-link"]);
    await repo.write("exec-to-link", files["exec-to-link"]);
    await Deno.chmod(`${repo.root}/exec-to-link`, 0o755);
    await repo.write("utf16-to-link", content("utf16", "utf16-to-link", "a"));
    await repo.git("add", "-A");
    await repo.git("commit", "-qm", "kinds");
    for (const path of Object.keys(files)) await Deno.remove(`${repo.root}/${path}`);
    await repo.write("link-to-file", "now a file\n");
    await Deno.symlink("keep.txt", `${repo.root}/file-to-link`);
    await Deno.symlink("keep.txt", `${repo.root}/exec-to-link`);
    await repo.write("link-to-utf16", content("utf16", "link-to-utf16", "b"));
    await Deno.symlink("keep.txt", `${repo.root}/utf16-to-link`);
    const r = await resolveRepo(runProcess, repo.root);
    const budgets = { perFileBytes: 1 << 20, totalBytes: 1 << 24 };
    const worktree = await collectChange(runProcess, {
      repo: r,
      target: { kind: "worktree" },
      budgets,
    });
    assertAccounted(worktree);
    assert.deepEqual(worktree.files.map((f) => [f.path, f.status]), [
      ["exec-to-link", "typechange"],
      ["file-to-link", "typechange"],
      ["link-to-file", "typechange"],
      ["link-to-utf16", "typechange"],
      ["utf16-to-link", "typechange"],
    ]);
    assert.equal(worktree.coverage.status, "complete", JSON.stringify(worktree.coverage));
    assert.match(worktree.diff, /\+now a file\n/);
    // the changed lines come from the file's own sections, both halves of a type change included
    assert.deepEqual(worktree.tree.changedLines("link-to-file"), [{ start: 1, end: 1 }]);
    assert.deepEqual(worktree.tree.changedLines("link-to-utf16"), [{ start: 1, end: 2 }]);
    assert.deepEqual(worktree.tree.changedLines("keep.txt"), []);
    assert.match(worktree.diff, /\+line one link-to-utf16 b\r\n/);
    assert.match(worktree.diff, /-line one utf16-to-link a\r\n/);
    await repo.git("add", "-A");
    const staged = await collectChange(runProcess, {
      repo: r,
      target: { kind: "staged" },
      budgets,
    });
    assert.equal(staged.diff, worktree.diff);
    await repo.git("commit", "-qm", "changed");
    const commit = await collectChange(runProcess, {
      repo: r,
      target: { kind: "commit", sha: "HEAD" },
      budgets,
    });
    assert.equal(commit.diff, worktree.diff);
  } finally {
    await repo.cleanup();
  }
});
