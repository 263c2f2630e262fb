/**
 * Folder-private helper: how the store writes files — atomically through lib/base/atomic_write.ts, new
 * files private (`0600`), JSON with two-space indent and a final newline.
 *
 * @module
 */
import {
  type FileData,
  type StagedFile,
  stageFile,
  writeFileAtomic,
} from "../base/atomic_write.ts";
import { jsonPieces } from "../base/json_pieces.ts";

/** Mode of a new store file: private to the user. */
export const STORE_FILE_MODE = 0o600;

/**
 * Write a store file atomically (temp file beside it, then rename); a new file gets mode `0600`.
 *
 * @param path the final path (its directory must exist)
 * @param data text, bytes, or text in pieces (such as {@linkcode jsonFileText})
 * @throws Deno.errors from the file system; no temp file is left behind
 */
export function writeStoreFile(path: string, data: FileData): Promise<void> {
  return writeFileAtomic(path, data, { newFileMode: STORE_FILE_MODE });
}

/**
 * Write a store file's temp file without renaming it yet (to rename several together).
 *
 * @param path the final path
 * @param data text or bytes
 * @returns the temp and target paths, for `Deno.rename(temp, target)`
 * @throws Deno.errors from the file system; no temp file is left behind
 */
export function stageStoreFile(path: string, data: FileData): Promise<StagedFile> {
  return stageFile(path, data, { newFileMode: STORE_FILE_MODE });
}

/**
 * JSON text as the store writes it: two-space indent, final newline.
 *
 * @param value any JSON-serialisable value
 * @returns the text
 */
export function jsonText(value: unknown): string {
  return JSON.stringify(value, null, 2) + "\n";
}

/**
 * The same text as {@linkcode jsonText}, in pieces (lib/base/json_pieces.ts): a run record that
 * names the omitted hunks of a 1M-line change is ~12 MB of JSON, never held whole.
 *
 * @param value any JSON-serialisable value
 * @returns the pieces of `jsonText(value)`
 */
export function* jsonFileText(value: unknown): Generator<string> {
  yield* jsonPieces(value);
  yield "\n";
}
