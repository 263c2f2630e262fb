/**
 * Test helper: a throwaway git repository in a temp dir with a fixed identity, no signing, branch
 * "main", isolated from the user's and the system's git config. Reused by other modules' tests.
 *
 * @module
 */

/** A throwaway repository. */
export interface TestRepo {
  /** Absolute real path of the worktree root. */
  root: string;
  /** Run git in the root with the test identity; returns stdout (text); throws on failure. */
  git(...args: string[]): Promise<string>;
  /** Write a repo-relative file, creating parent directories. */
  write(path: string, content: string | Uint8Array): Promise<void>;
  /** Read a repo-relative file's bytes. */
  read(path: string): Promise<Uint8Array>;
  /** Remove the repository. */
  cleanup(): Promise<void>;
}

/** Environment for test git calls: no user/system config, fixed identity and dates. */
export const TEST_GIT_ENV: Readonly<Record<string, string>> = {
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_AUTHOR_NAME: "Test",
  GIT_AUTHOR_EMAIL: "test@example.com",
  GIT_COMMITTER_NAME: "Test",
  GIT_COMMITTER_EMAIL: "test@example.com",
  GIT_AUTHOR_DATE: "2026-01-01T00:00:00Z",
  GIT_COMMITTER_DATE: "2026-01-01T00:00:00Z",
};

/**
 * Create a repository. With `files`, they are written, added and committed as "initial"; without,
 * the branch is unborn.
 *
 * @param files repo-relative path → content
 * @param options `objectFormat: "sha256"` for a sha256 repository
 * @example
 * ```ts ignore
 * const repo = await makeTestRepo({ "a.txt": "one\n" });
 * try { await repo.write("a.txt", "two\n"); } finally { await repo.cleanup(); }
 * ```
 */
export async function makeTestRepo(
  files?: Record<string, string | Uint8Array>,
  options: { objectFormat?: "sha1" | "sha256" } = {},
): Promise<TestRepo> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "review-gate-repo-" }));
  const git = async (...args: string[]) => {
    const out = await new Deno.Command("git", {
      args,
      cwd: root,
      env: TEST_GIT_ENV,
      stdin: "null",
    }).output();
    const text = new TextDecoder().decode(out.stdout);
    if (!out.success) {
      throw new Error(`git ${args.join(" ")} failed: ${new TextDecoder().decode(out.stderr)}`);
    }
    return text;
  };
  const write = async (path: string, content: string | Uint8Array) => {
    const full = `${root}/${path}`;
    await Deno.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
    if (typeof content === "string") await Deno.writeTextFile(full, content);
    else await Deno.writeFile(full, content);
  };
  await git("init", "-q", "-b", "main", `--object-format=${options.objectFormat ?? "sha1"}`);
  await git("config", "commit.gpgsign", "false");
  if (files) {
    for (const [path, content] of Object.entries(files)) await write(path, content);
    await git("add", "-A");
    await git("commit", "-q", "--allow-empty", "-m", "initial");
  }
  return {
    root,
    git,
    write,
    read: (path) => Deno.readFile(`${root}/${path}`),
    cleanup: () => Deno.remove(root, { recursive: true }),
  };
}
