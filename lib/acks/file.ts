/**
 * Reading and writing `.review-gate/acks.json` (schemas/acks.schema.json): from the worktree or
 * from a commit (the trusted side), validated by a validator generated from the schema (`deno task
 * gen`, no ajv load on the hook paths). A missing file is no acknowledgement; an invalid one is a
 * {@linkcode ConfigError} naming the file and the problem (exit 2), never silently ignored.
 *
 * @module
 */
import { dirname, join } from "../base/path.ts";
import { ConfigError } from "../base/errors.ts";
import { writeFileAtomic } from "../base/atomic_write.ts";
import type { Runner } from "../exec/exec.ts";
import { runGit } from "../git/git.ts";
import { type AjvError, describeError } from "../config/validate.ts";
import { type Ack, ACKS_FILE, type AcksSource } from "./types.ts";
import { readRegularText } from "../base/regular_file.ts";
import { compareCodeUnits } from "../base/compare.ts";

/**
 * Parse and validate the text of an acks file.
 *
 * @param text the file's content (a leading BOM is dropped)
 * @param label where it came from, for messages (e.g. `.review-gate/acks.json at 1a2b3c4`)
 * @returns the acknowledgements
 * @throws {ConfigError} for text that is not JSON or does not fit the schema
 */
export async function parseAcksText(text: string, label: string): Promise<Ack[]> {
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    throw new ConfigError(`Invalid ${label}: not JSON (${(error as Error).message})`);
  }
  // the generated validator (~16 KB) loads only when there is a file to check
  const { default: validateAcks } = await import("../generated/acks_validator.js");
  if (!validateAcks(value)) {
    const errors = (validateAcks as unknown as { errors?: AjvError[] }).errors ?? [];
    const problems = errors.slice(0, 5).map((e) => describeError(e, "the file"));
    throw new ConfigError(
      `Invalid ${label}: ${problems.join("; ")} (see \`review-gate schema acks\`)`,
    );
  }
  return (value as { acks: Ack[] }).acks;
}

/**
 * Read the acknowledgements of a source.
 *
 * @param runner runs git for a `tree` source
 * @param source the worktree, or a tree-ish whose committed file counts
 * @returns the acknowledgements (empty when the file does not exist there)
 * @throws {ConfigError} for an invalid file; {@linkcode import("../base/errors.ts").GitError} or a
 *   file-system error when it cannot be read
 */
export async function readAcks(runner: Runner, source: AcksSource): Promise<Ack[]> {
  if (source.kind === "worktree") {
    let text: string;
    try {
      text = await readRegularText(join(source.root, ACKS_FILE));
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return [];
      throw error;
    }
    return await parseAcksText(text, ACKS_FILE);
  }
  const spec = `${source.rev}:${ACKS_FILE}`;
  const found = await runGit(runner, source.root, ["rev-parse", "--verify", "--quiet", spec]);
  if (found.code !== 0) return [];
  const blob = await runGit(runner, source.root, ["cat-file", "blob", spec]);
  if (blob.code !== 0) return [];
  const label = `${ACKS_FILE} at ${source.rev.slice(0, 12)}`;
  return await parseAcksText(new TextDecoder().decode(blob.stdout), label);
}

/**
 * Write the acks file of a worktree (atomically; the folder is created), entries sorted by file
 * then fingerprint so diffs stay small. The result is checked against the schema before writing.
 *
 * @param root the repository root
 * @param acks every acknowledgement to keep
 * @returns the absolute path written
 * @throws {ConfigError} when an entry does not fit the schema (e.g. an empty reason)
 */
export async function writeAcks(root: string, acks: readonly Ack[]): Promise<string> {
  const sorted = [...acks].sort((a, b) =>
    compareCodeUnits(a.file, b.file) || compareCodeUnits(a.fingerprint, b.fingerprint)
  );
  const text = JSON.stringify({ version: 1, acks: sorted }, null, 2) + "\n";
  await parseAcksText(text, "acknowledgement");
  const path = join(root, ACKS_FILE);
  await Deno.mkdir(dirname(path), { recursive: true });
  await writeFileAtomic(path, text);
  return path;
}
