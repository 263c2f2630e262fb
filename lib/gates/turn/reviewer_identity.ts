/**
 * Who would answer a turn's review: the reviewer programs the providers would start (their real
 * paths) and the environment that changes which model answers or where its requests go — `PATH`,
 * `HOME`, the providers' own variables (`ANTHROPIC_*`, `CLAUDE_*`, `OPENAI_*`, `CODEX_*`,
 * `MISTRAL_*`, `VIBE_*`), the cloud credentials' (`AWS_*`, `GOOGLE_*`, `CLOUD_ML_*`, `VERTEX_*`),
 * `REVIEW_GATE_*` and the proxies. A Stop reuses the verdict it remembered only for the same
 * identity (docs/design.md "Turn gate"): a Stop the agent runs itself with a reviewer of its own
 * choosing must not leave an approval the real Stop takes.
 *
 * @module
 */
import { sha256Hex } from "../../base/sha256.ts";
import { providerPrograms } from "./guard_files.ts";

const ANSWER_CHANGING =
  /^(PATH|HOME|(ANTHROPIC|CLAUDE|OPENAI|CODEX|MISTRAL|VIBE|AWS|GOOGLE|CLOUD_ML|VERTEX|REVIEW_GATE)_.*|(HTTPS?|ALL|NO)_PROXY)$/i;

/**
 * A digest of the reviewer programs and the answer-changing environment.
 *
 * @param env the hook's environment
 * @returns sha256 hex
 */
export async function reviewerIdentity(env: Record<string, string | undefined>): Promise<string> {
  const vars = Object.entries(env)
    .filter(([name, value]) => value !== undefined && ANSWER_CHANGING.test(name))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return await sha256Hex(JSON.stringify({ programs: providerPrograms(env), vars }));
}
