/**
 * Writing the outputs a command's `--format`/`--output` flags asked for (lib/cli/outputs.ts): files
 * atomically, at most one format on stdout. Under GitHub Actions, text a
 * format prints on stdout is fenced with `::stop-commands::` so model text can never be read as a
 * workflow command, and the `github` format also appends the markdown review to the job summary
 * (`GITHUB_STEP_SUMMARY`, at most 1 MiB per step).
 *
 * @module
 */
import { dirname, resolve } from "../base/path.ts";
import { writeFileAtomic } from "../base/atomic_write.ts";
import { UsageError } from "../base/errors.ts";
import { getPiecesRenderer, getRenderer, type RenderInput } from "../formats/registry.ts";
import { choosePaint } from "../formats/style.ts";
import type { Policy } from "../kinds/review/policy.ts";
import { resolveRepo } from "../git/repo.ts";
import { stampOutputWrites } from "../store/output_writes.ts";
import { ensureStateDir } from "../store/state.ts";
import type { CliDeps } from "./deps.ts";
import type { OutputRequest } from "./outputs.ts";

/** Most bytes GitHub takes in one step's job summary. */
export const STEP_SUMMARY_MAX_BYTES = 1024 * 1024;

/**
 * Render and write every requested output.
 *
 * @param requests from `addOutputOptions` (lib/cli/outputs.ts)
 * @param input the finished review
 * @param at the policy, the CLI's I/O, and a path prefix for CI annotations
 * @throws {UsageError} for a format the run's kind has no renderer for, or naming every output that
 *   could not be written (after all were attempted)
 */
export async function writeOutputs(
  requests: readonly OutputRequest[],
  input: RenderInput<unknown>,
  at: { policy: Policy; deps: CliDeps; pathPrefix?: string },
): Promise<void> {
  const { deps } = at;
  const failures: string[] = [];
  for (const request of requests) {
    const toStdout = request.output === undefined;
    const text = await (await getPiecesRenderer(request.format))(input, {
      policy: at.policy,
      // only the terminal format paints: the others ignore it
      paint: toStdout ? choosePaint(deps.stdout.isTerminal, deps.env) : undefined,
      pathPrefix: at.pathPrefix,
    });
    const failure = await writeOutputText(request, text, deps);
    if (failure) failures.push(failure);
    if (request.format === "github" && deps.env.GITHUB_STEP_SUMMARY) {
      // the github format renders reviews only (another kind was refused above)
      const summary = await (await getRenderer("markdown"))(input, { policy: at.policy });
      await appendStepSummary(deps.env.GITHUB_STEP_SUMMARY, summary)
        .catch((error) =>
          failures.push(`Cannot write the job summary: ${(error as Error).message}`)
        );
    }
  }
  if (failures.length > 0) throw new UsageError(failures.join("; "));
}

/**
 * Write one output's rendered text: to stdout (fenced under GitHub Actions), or atomically to its
 * `--output` file, creating the file's directory; a symlink at that path is replaced by the file,
 * its target never written (the path may be inside the repository under review). Text in pieces (the json format's: ~12 MB for a
 * 1M-line change) goes to stdout piece by piece, never whole; fenced, or to a file inside a
 * repository (whose write is stamped by its content), it is joined first.
 *
 * @param request the format and where it goes
 * @param rendered the rendered text, whole or in pieces (in order)
 * @param deps the CLI's I/O
 * @returns `Cannot write <file>: <why>` when the file could not be written, else `undefined`
 */
export async function writeOutputText(
  request: OutputRequest,
  rendered: string | Iterable<string>,
  deps: CliDeps,
): Promise<string | undefined> {
  const fenced = deps.env.GITHUB_ACTIONS === "true";
  if (request.output === undefined && typeof rendered !== "string" && !fenced) {
    for (const piece of rendered) deps.stdout.write(piece);
    return undefined;
  }
  const text = typeof rendered === "string" ? rendered : [...rendered].join("");
  if (request.output === undefined) {
    deps.stdout.write(fenceForActions(text, request.format, deps.env));
    return undefined;
  }
  const path = resolve(deps.cwd, request.output);
  return await Deno.mkdir(dirname(path), { recursive: true })
    .then(() => stampOutput(deps, path, text))
    // the path may be the change's own (`review.md -> ~/.bashrc` committed): never write a link's target
    .then(() => writeFileAtomic(path, text, { replaceSymlink: true }))
    .then(
      () => undefined,
      (error) => `Cannot write ${request.output}: ${(error as Error).message}`,
    );
}

/**
 * Record an output file about to be written inside a repository (lib/store/output_writes.ts), so a review
 * running there meanwhile does not take it for its provider's write. Best effort: never fails.
 */
async function stampOutput(deps: CliDeps, path: string, text: string): Promise<void> {
  try {
    const repo = await resolveRepo(deps.runner, dirname(path));
    await stampOutputWrites(await ensureStateDir(repo.commonDir), [{ path, text }], deps.env);
  } catch {
    // outside a repository, or the state dir is not writable: nothing to protect
  }
}

/**
 * Under GitHub Actions (`GITHUB_ACTIONS=true`), fence stdout text of any format but `github` with
 * `::stop-commands::<random token>` … `::<token>::`: the runner then reads no line of it as a
 * workflow command, whatever the model wrote.
 */
export function fenceForActions(
  text: string,
  format: string,
  env: Record<string, string | undefined>,
): string {
  if (env.GITHUB_ACTIONS !== "true" || format === "github" || text === "") return text;
  let token: string;
  do {
    token = Array.from(
      crypto.getRandomValues(new Uint8Array(16)),
      (b) => b.toString(16).padStart(2, "0"),
    ).join("");
  } while (text.includes(token));
  return `::stop-commands::${token}\n${text}${text.endsWith("\n") ? "" : "\n"}::${token}::\n`;
}

/**
 * The markdown review as the job summary holds it: whole, or cut with a note to what GitHub
 * accepts ({@linkcode STEP_SUMMARY_MAX_BYTES}). The cut falls at a line break: each line of the
 * review closes its own code spans (lib/base/inert_markdown.ts), so no model text cut off inside
 * one is left outside it, where it could become a link.
 *
 * @param markdown the review in Markdown
 * @returns the text to append, ending in a newline
 */
export function stepSummaryText(markdown: string): string {
  const bytes = new TextEncoder().encode(markdown);
  if (bytes.byteLength <= STEP_SUMMARY_MAX_BYTES - 200) return markdown + "\n";
  const head = new TextDecoder().decode(bytes.slice(0, STEP_SUMMARY_MAX_BYTES - 200));
  const cut = head.slice(0, head.lastIndexOf("\n") + 1);
  return `${cut}\n… (cut: the job summary holds 1 MiB; the full review is in the run folder)\n\n`;
}

/** Append to the job summary ({@linkcode stepSummaryText}). */
async function appendStepSummary(path: string, markdown: string): Promise<void> {
  await Deno.writeTextFile(path, stepSummaryText(markdown), { append: true });
}
