/**
 * Reading the plan a compliance review checks against (`review --plan PLAN.md`): the file, as
 * UTF-8, at most {@linkcode MAX_PLAN_BYTES}, with at least one and at most
 * {@linkcode MAX_PLAN_ITEMS} items (lib/kinds/compliance/plan.ts). Every problem is a usage error
 * (exit 2) saying what to do.
 *
 * @module
 */
import { resolve } from "../../base/path.ts";
import { UsageError } from "../../base/errors.ts";
import { sha256Hex } from "../../base/sha256.ts";
import { MAX_PLAN_ITEMS, parsePlan } from "./plan.ts";
import type { CompliancePlan } from "./types.ts";

/** Largest plan file, bytes (the whole text goes into the prompt). */
export const MAX_PLAN_BYTES = 64 * 1024;

/**
 * Read and parse a plan file.
 *
 * @param path the plan file as given on the command line
 * @param cwd the directory a relative `path` is taken from
 * @returns the plan (`path` as given)
 * @throws {UsageError} unreadable, not UTF-8, too large, no items, too many items
 */
export async function loadPlan(path: string, cwd: string): Promise<CompliancePlan> {
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(resolve(cwd, path));
  } catch (error) {
    throw new UsageError(`Cannot read the plan "${path}": ${(error as Error).message}`, {
      cause: error,
    });
  }
  if (bytes.length > MAX_PLAN_BYTES) {
    throw new UsageError(
      `The plan "${path}" has ${bytes.length} bytes; at most ${MAX_PLAN_BYTES}: shorten it or check it in parts`,
    );
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (error) {
    throw new UsageError(`The plan "${path}" is not UTF-8 text`, { cause: error });
  }
  const items = parsePlan(text);
  if (items.length === 0) {
    throw new UsageError(
      `No plan items found in "${path}": write them as a checklist ("- [ ] …"), numbered steps ("1. …") or list items under headings`,
    );
  }
  if (items.length > MAX_PLAN_ITEMS) {
    throw new UsageError(
      `The plan "${path}" has ${items.length} items; at most ${MAX_PLAN_ITEMS}: check it in parts`,
    );
  }
  return { path, text, sha256: await sha256Hex(bytes), items };
}
