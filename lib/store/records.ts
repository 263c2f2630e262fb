/**
 * `records.jsonl`: one JSON line per finished review, appended under an exclusive lock
 * (DESIGN.md "Store (contract)"). The lock is `flock` via `Deno.FsFile.lock(true)` on the file
 * itself — released by the kernel when the holder dies, so there is no stale-lock takeover to get
 * wrong (verified on Deno 2.9.6 across processes). Each line is written with one write call.
 *
 * @module
 */
import { join } from "node:path";

/**
 * Path of the records file in a state dir.
 *
 * @param state the state dir
 * @returns `<state>/records.jsonl`
 */
export function recordsPath(state: string): string {
  return join(state, "records.jsonl");
}

/**
 * Append one record as a JSON line; concurrent appenders (threads or processes) never interleave.
 *
 * @param state the state dir (must exist)
 * @param line a JSON-serialisable object; serialised on one line
 * @throws Deno.errors from the file system
 */
export async function appendRecord(state: string, line: object): Promise<void> {
  const bytes = new TextEncoder().encode(JSON.stringify(line) + "\n");
  using file = await Deno.open(recordsPath(state), { create: true, append: true, mode: 0o600 });
  await file.lock(true);
  try {
    let written = await file.write(bytes);
    while (written < bytes.byteLength) written += await file.write(bytes.subarray(written));
  } finally {
    await file.unlock();
  }
}

/**
 * Read all records; lines that do not parse (a crash mid-write, hand edits) are skipped.
 *
 * @param state the state dir
 * @returns the parsed lines in file order; [] when the file is missing
 */
export async function readRecords(state: string): Promise<unknown[]> {
  let text: string;
  try {
    text = await Deno.readTextFile(recordsPath(state));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
  const out: unknown[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      out.push(JSON.parse(line));
    } catch {
      // skipped
    }
  }
  return out;
}
