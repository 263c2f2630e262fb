/**
 * Test helpers for the adapter tests (folder-private): the recorded provider envelopes in
 * fixtures/provider-samples/, a process output without read-back files, and a first-call request
 * for a repo at `/repo` with temporary files under `/tmp/rg-x`.
 *
 * @module
 */

import reviewSchema from "../../schemas/review.schema.json" with { type: "json" };
import type { ProcessOutput, ProviderRequest } from "./provider.ts";

const SAMPLES = new URL("../../fixtures/provider-samples/", import.meta.url);

/** The text of fixtures/provider-samples/`name`; throws when it is missing. */
export function sample(name: string): string {
  return Deno.readTextFileSync(new URL(name, SAMPLES));
}

/** A finished process with `stdout`, exit `code` and `stderr`, and no read-back files. */
export function output(stdout: string, code = 0, stderr = ""): ProcessOutput {
  return { code, stdout, stderr, files: {} };
}

/** A first call (attempt 1, 8 turns) reviewing `/repo` against the review schema. */
export const REQUEST: ProviderRequest = {
  prompt: "Review this change.",
  schema: reviewSchema,
  root: "/repo",
  maxTurns: 8,
  tmpDir: "/tmp/rg-x",
  attempt: 1,
};
