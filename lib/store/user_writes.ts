/**
 * Which files the user's own review-gate commands wrote last (`ack`, `gate enable|disable`,
 * `install`, `uninstall`): a digest of each file's text, by absolute path, in the state dir
 * (`user-writes.json`; a removed file is recorded as removed). The turn gates refuse an agent's
 * change to what controls them (lib/gates/turn/guard.ts), but the user must keep every escape in
 * the middle of a turn — switching the gate off, accepting a finding, reinstalling. Those commands
 * do not record anything when they run inside an agent's session (lib/base/agent_env.ts), so a
 * file whose text matches its record is the user's, and any other change to it is not.
 *
 * @module
 */
import { join } from "node:path";
import { sha256Hex } from "../base/sha256.ts";
import { readPathRecord } from "./_path_record.ts";
import { jsonText, writeStoreFile } from "./_write.ts";

const FILE = "user-writes.json";
const REMOVED = "removed";

function read(state: string): Promise<Record<string, string>> {
  return readPathRecord(join(state, FILE));
}

/**
 * Record what the user's command left in some files.
 *
 * @param state the state dir (must exist)
 * @param files absolute path → the text written, or `null` for a file removed
 * @throws Deno.errors from the file system
 */
export async function stampUserWrites(
  state: string,
  files: ReadonlyArray<{ path: string; text: string | null }>,
): Promise<void> {
  if (files.length === 0) return;
  const known = await read(state);
  for (const f of files) known[f.path] = f.text === null ? REMOVED : await sha256Hex(f.text);
  await writeStoreFile(join(state, FILE), jsonText(known));
}

/**
 * True when a file is as the user's own review-gate command left it.
 *
 * @param state the state dir
 * @param path the file's absolute path
 * @param text its text now, or `null` when it does not exist
 */
export async function writtenByUser(
  state: string,
  path: string,
  text: string | null,
): Promise<boolean> {
  const recorded = (await read(state))[path];
  if (recorded === undefined) return false;
  return recorded === (text === null ? REMOVED : await sha256Hex(text));
}
