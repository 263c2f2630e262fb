/**
 * A change's listing and its patch from one git call: `git diff-tree -z --raw [--numstat] -p` prints
 * every raw entry, then every numstat entry (when asked for), then one NUL (the separator git writes
 * between output formats, `line_termination` under `-z`: diff.c `DIFF_SYMBOL_SEPARATOR`), then the
 * patch — the same bytes as the listing alone followed by `-p` alone (`-z` changes no patch byte).
 * Collection asks for `--raw -p` only: `--numstat` makes git diff every file twice (on a 1M-line
 * change, 3.6 s instead of 2.1-2.6 s), and the patch has the counts. The
 * listing is handed over as soon as it has arrived, so the caller can decide what to do with the
 * patch (the team's path filter, lib/git/collect.ts) while git is still printing it.
 *
 * Until the caller is ready, patch bytes are held, up to a bound; past it they are dropped and the
 * result says the patch must be read again (one more call), so memory stays bounded whatever the
 * change's size.
 *
 * @module
 */
import type { Runner } from "../exec/exec.ts";
import { ByteBuffer } from "../base/byte_buffer.ts";
import { streamGit } from "./git.ts";

/** Patch bytes held at most while the caller prepares for them (bytes). */
export const HOLD_BYTES = 8 * 1024 * 1024;

const COLON = 0x3a;
const TAB = 0x09;
const SPACE = 0x20;

/**
 * Finds where the `--raw [--numstat] -z` listing at the start of a stream ends, chunk after chunk,
 * without reading any byte twice. Formats: git-diff(1) "RAW OUTPUT FORMAT" (`:<modes> <ids>
 * <status>` NUL path NUL, a second path for R and C), and `--numstat -z` (`<added> TAB <deleted>
 * TAB <path>` NUL, or `<added> TAB <deleted> TAB` NUL old NUL new NUL for a rename or copy). The
 * separator NUL right after the raw entries means there are no numstat entries (none is empty).
 */
export class ListingScanner {
  #pos = 0;
  #entries = 0;
  #stats = 0;
  #paths = 0;

  /**
   * Scan what has arrived so far (the same bytes again plus any new ones).
   *
   * @param bytes the stream's bytes from its start
   * @returns the listing's length in bytes (its last NUL included; the separator NUL follows at
   *   that index) once the listing and the separator have arrived, else `null`
   */
  scan(bytes: Uint8Array): number | null {
    while (this.#pos < bytes.length) {
      const byte = bytes[this.#pos];
      const rawOnly = this.#stats === 0 && byte === 0; // no numstat entry can be empty
      if (this.#paths === 0 && (this.#stats === this.#entries || rawOnly) && byte !== COLON) {
        // the numstat entries are complete (or there are none): the separator ends the listing
        if (this.#entries === 0) throw new Error("Unexpected diff-tree output: no listing");
        if (bytes[this.#pos] !== 0) throw new Error("Unexpected diff-tree output: no separator");
        return this.#pos;
      }
      const nul = bytes.indexOf(0, this.#pos);
      if (nul < 0) return null;
      this.#token(bytes, this.#pos, nul);
      this.#pos = nul + 1;
    }
    return null;
  }

  #token(bytes: Uint8Array, start: number, end: number): void {
    if (this.#paths > 0) {
      this.#paths--;
    } else if (this.#stats === 0 && bytes[start] === COLON) {
      // the status letter follows the fourth space: R and C name two paths
      let at = start;
      for (let spaces = 0; spaces < 4 && at < end; at++) if (bytes[at] === SPACE) spaces++;
      this.#paths = bytes[at] === 0x52 || bytes[at] === 0x43 ? 2 : 1;
      this.#entries++;
    } else {
      // a numstat entry whose path field is empty names its two paths in the next tokens
      let tabs = 0;
      for (let at = start; at < end; at++) if (bytes[at] === TAB) tabs++;
      this.#paths = tabs === 2 && bytes[end - 1] === TAB ? 2 : 0;
      this.#stats++;
    }
  }
}

/**
 * Run one `git diff-tree -z --raw --numstat -p` (the caller's `args`) and split its output.
 *
 * @param runner the subprocess seam
 * @param root the worktree root
 * @param args the whole git argument list
 * @param prepare called once with the listing bytes (empty for an empty change); the function it
 *   resolves to gets the patch, in order, chunk by chunk (views valid only during the call)
 * @param holdBytes most patch bytes held while `prepare` runs (default {@linkcode HOLD_BYTES})
 * @returns the listing, and `complete: false` when patch bytes had to be dropped while `prepare`
 *   ran (read the patch again, alone)
 * @throws {import("../base/errors.ts").GitError} when git fails; whatever `prepare` or the patch
 *   sink throws (after git has finished)
 */
export async function streamListedPatch(
  runner: Runner,
  root: string,
  args: readonly string[],
  prepare: (listing: Uint8Array) => Promise<(chunk: Uint8Array) => void>,
  holdBytes: number = HOLD_BYTES,
): Promise<{ listing: Uint8Array; complete: boolean }> {
  const head = new ByteBuffer(64 * 1024);
  const scanner = new ListingScanner();
  const held: Uint8Array[] = [];
  let heldBytes = 0;
  // an object, not a variable: the stream's callback changes it while this function awaits
  const at: { state: "listing" | "held" | "dropped" | "sink" } = { state: "listing" };
  let sink: (chunk: Uint8Array) => void = () => {};
  let listed: (listing: Uint8Array) => void = () => {};
  const listing = new Promise<Uint8Array>((resolve) => (listed = resolve));
  const patch = (bytes: Uint8Array) => {
    if (bytes.length === 0 || at.state === "dropped") return;
    if (at.state === "sink") return sink(bytes);
    heldBytes += bytes.length;
    if (heldBytes > holdBytes) {
      at.state = "dropped";
      held.length = 0;
    } else held.push(bytes.slice());
  };
  const run = streamGit(runner, root, args, (chunk) => {
    if (at.state !== "listing") return patch(chunk);
    head.append(chunk);
    const end = scanner.scan(head.view(0, head.length));
    if (end === null) return;
    at.state = "held";
    listed(head.view(0, end).slice());
    patch(head.view(end + 1, head.length));
  });
  // an empty change prints nothing: the listing is whatever arrived when git is done
  const bytes = await Promise.race([listing, run.then(() => head.view(0, head.length).slice())]);
  try {
    sink = await prepare(bytes);
  } catch (error) {
    at.state = "dropped";
    await run.catch(() => {});
    throw error;
  }
  if (at.state === "held") {
    at.state = "sink";
    for (const chunk of held.splice(0)) sink(chunk);
  }
  await run;
  return { listing: bytes, complete: at.state !== "dropped" };
}
