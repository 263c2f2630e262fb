/**
 * What one part's cached verdict is tied to (docs/design.md "Review plan"): its cache key — the
 * part's exact diff bytes (its digest) under the review's identity (schema, template, program,
 * model, focus, variant, acknowledgements, and the rules of its own paths) — and the tree its
 * answer is judged against (only its files). A review in parts (lib/review/parts.ts) reads and
 * writes verdicts under these keys; a change planned as one part and asked once is cached under its
 * whole-change key and, through {@linkcode cacheWholeAsPart}, under its one part's key too, so the
 * same bytes are not asked again once the change grows to several parts.
 *
 * @module
 */
import type { DecoderKind, TreeView } from "../answer/types.ts";
import { sha256Hex } from "../base/sha256.ts";
import type { Config } from "../config/config.ts";
import type { Change, ExcludedFile } from "../git/types.ts";
import type { GuidelineChooser } from "../rules/apply.ts";
import { rulesIdentity } from "../rules/report.ts";
import { cacheKey, writeCache } from "../store/cache.ts";

/** The guidelines sent with a prompt (lib/rules/apply.ts). */
type ReviewGuidelines = ReturnType<GuidelineChooser>;

/** The identity pieces a part's key holds besides its bytes. */
export interface PartIdentity {
  config: Config;
  /** The guidelines sent with the part (absent: no rules in the key, as a review without them). */
  guidelines?: ReviewGuidelines;
  /** The change's files excluded by rule. */
  excluded: readonly ExcludedFile[];
  schemaHash: string;
  templateHash: string;
  /** lib/review/identity.ts `programKey` of the provider asked. */
  provider: string;
  model?: string;
  focus?: string;
  /** The prompt variant ("review", "adversarial-review"). */
  variant: string;
  /** The acknowledgements' digest (lib/review/acks.ts `ReviewAcks.digest`). */
  acks: string;
}

/**
 * The cache key of a part's verdict.
 *
 * @param digest the part's digest (lib/git/types.ts `ChangeChunk.digest`)
 * @returns 64 hex characters
 */
export async function partCacheKey(digest: string, at: PartIdentity): Promise<string> {
  const rules = at.guidelines
    ? await rulesIdentity(at.config, { guidelines: at.guidelines, excluded: at.excluded })
    : undefined;
  return await cacheKey({
    ...(rules !== undefined ? { rules } : {}),
    fingerprint: await sha256Hex([`part\0`, digest]),
    schemaId: at.schemaHash,
    promptTemplateHash: at.templateHash,
    provider: at.provider,
    model: at.model,
    focus: at.focus,
    reviewKind: at.variant,
    planId: "part",
    acks: at.acks,
  });
}

/** A chunk's digest, as taken at collection (or of its diff, when none was). */
export async function chunkDigest(change: Change, index: number): Promise<string> {
  const chunk = change.chunks[index];
  return chunk.digest ?? await sha256Hex(chunk.diff);
}

/** The reviewed tree as one part sees it: only its files (and their old paths) exist. */
export function partView(change: Change, index: number): TreeView {
  const paths = new Set(change.chunks[index].paths);
  for (const file of change.files) {
    if (paths.has(file.path) && file.oldPath) paths.add(file.oldPath);
  }
  const tree = change.tree;
  return {
    root: tree.root,
    lineCount: (path) => (paths.has(path) ? tree.lineCount(path) : Promise.resolve(null)),
    text: (path) => (paths.has(path) ? tree.text(path) : Promise.resolve(null)),
    isDeleted: (path) => paths.has(path) && tree.isDeleted(path),
    changedLines: (path) => tree.changedLines(path),
  };
}

/**
 * Cache the answer of a change planned as one part and asked once under that part's key as well
 * — only when it is exactly what the part would have been asked and accepted with: the same rules
 * identity (the guidelines of the part's paths are those the whole prompt carried) and an answer
 * the decoder accepts against the part's own files (a finding on a file outside the part would not
 * be). Best-effort and silent: the whole-change verdict is stored by the run either way.
 *
 * @param at the state dir, the change (one chunk), the decoder of its answer kind, the answer, the
 *   guidelines of the whole prompt and those of the part's paths, and the part's identity
 * @returns true when written
 */
export async function cacheWholeAsPart(
  at: {
    state: string;
    change: Change;
    decoder: DecoderKind<unknown>;
    answer: unknown;
    wholeGuidelines: ReviewGuidelines;
    identity: PartIdentity & { guidelines: ReviewGuidelines };
  },
): Promise<boolean> {
  try {
    const { change, identity } = at;
    if (change.chunks.length !== 1) return false;
    const excluded = change.excludedByRule;
    const [whole, part] = await Promise.all([
      rulesIdentity(identity.config, { guidelines: at.wholeGuidelines, excluded }),
      rulesIdentity(identity.config, { guidelines: identity.guidelines, excluded }),
    ]);
    if (whole !== part) return false;
    const { decode } = await import("../answer/decoder.ts");
    const decided = await decode(at.decoder, { value: at.answer }, partView(change, 0));
    if (!decided.ok) return false;
    const key = await partCacheKey(await chunkDigest(change, 0), identity);
    const record = { id: "part-1", status: "approved" as const };
    return await writeCache(at.state, key, { answer: decided.answer, record });
  } catch {
    return false; // bookkeeping: the whole-change verdict stands on its own
  }
}
