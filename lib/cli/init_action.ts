/**
 * The work of `review-gate init`, loaded when it runs (lib/cli/init.ts defines the command).
 *
 * @module
 */
import { writeFileAtomic } from "../base/atomic_write.ts";
import { UsageError } from "../base/errors.ts";
import { join } from "../base/path.ts";
import { DEFAULT_CONFIG, parseConfigText, REPO_CONFIG_FILE } from "../config/config.ts";
import { initConfigText } from "../config/init_text.ts";
import { resolveRepo } from "../git/repo.ts";
import type { ProviderSetting } from "../providers/registry.ts";
import type { CliDeps } from "./deps.ts";

/** `init`'s parsed flags. */
export type InitFlags = { provider?: ProviderSetting; force?: boolean };

/**
 * Write the commented config at the root of the repository around `deps.cwd`.
 *
 * @returns exit code 0
 * @throws {UsageError} (exit 2) the file exists (without `--force`) or is not a regular file
 * @throws {import("../base/errors.ts").GitError} not inside a repository
 */
export async function init(flags: InitFlags, deps: CliDeps): Promise<number> {
  const repo = await resolveRepo(deps.runner, deps.cwd);
  const path = join(repo.root, REPO_CONFIG_FILE);
  const existing = await Deno.lstat(path).catch(() => null);
  if (existing && !flags.force) {
    throw new UsageError(
      `${path} already exists: edit it, or replace it with "review-gate init --force"`,
    );
  }
  if (existing && !existing.isFile) {
    throw new UsageError(`${path} is not a regular file: remove it first`);
  }
  const text = initConfigText(flags.provider);
  // what is written must load as review-gate reads it (never a file the next push trips on)
  await parseConfigText(text, path);
  await writeFileAtomic(path, text);
  deps.stdout.write(
    `${existing ? "Replaced" : "Wrote"} ${path}\n` +
      `  provider: ${
        flags.provider ?? DEFAULT_CONFIG.provider
      }; the commented keys hold the defaults\n` +
      `  check it: review-gate doctor; commit it to share it with your team\n`,
  );
  return 0;
}
