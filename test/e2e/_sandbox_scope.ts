/**
 * Scoped sandboxes for end-to-end tests: a throwaway repository and private dirs (`makeSandbox`
 * in test/e2e/_cli.ts) that are always removed, even when the test body throws; and a bounded wait
 * for what a spawned CLI does.
 *
 * @module
 */
import { makeSandbox, type Sandbox } from "./_cli.ts";

/**
 * Run `fn` in a fresh sandbox holding `files` (committed), then remove the sandbox.
 *
 * @param files repo-relative path → content, committed as "initial"; `undefined` for an unborn
 *   branch
 * @param fn the test body
 */
export async function withSandbox(
  files: Record<string, string | Uint8Array> | undefined,
  fn: (sandbox: Sandbox) => Promise<void>,
): Promise<void> {
  const sandbox = await makeSandbox(files);
  try {
    await fn(sandbox);
  } finally {
    await sandbox.cleanup();
  }
}

/**
 * Run `fn` in a sandbox whose worktree has one unstaged change (`src/app.ts`: `a = 1` → `a = 2`),
 * so `review` has something to review.
 *
 * @param fn the test body
 */
export async function withChangedSandbox(fn: (sandbox: Sandbox) => Promise<void>): Promise<void> {
  await withSandbox({ "src/app.ts": "export const a = 1;\n" }, async (sandbox) => {
    await sandbox.repo.write("src/app.ts", "export const a = 2;\n");
    await fn(sandbox);
  });
}

/**
 * Poll `check` every 50 ms until it holds.
 *
 * @param ms the longest wait in ms
 * @throws {Error} when the condition does not hold within `ms`
 */
export async function waitFor(check: () => Promise<boolean>, ms: number): Promise<void> {
  const until = performance.now() + ms;
  while (!(await check())) {
    if (performance.now() > until) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((done) => setTimeout(done, 50));
  }
}
