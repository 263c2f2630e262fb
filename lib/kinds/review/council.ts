/**
 * A council review's agreement (pure): the same review plan went to two or three providers, their
 * answers were merged (lib/kinds/review/merge.ts matches the same finding across providers: same
 * file, overlapping lines, similar title), and each merged finding now says who reported it out of
 * the providers that reviewed its part. `council_policy` decides which findings block: `any` (one
 * provider is enough), `majority` (more than half of those that reviewed the part), `all` (every
 * one of them). A provider whose call for a part did not answer is not counted for that part, so a
 * finding is never judged against a provider that never saw its lines. Blocking is decided per
 * provider's own version of the finding: under `any` a finding blocks when any provider's own
 * version blocks, under `majority`/`all` when enough providers' own versions block; the finding
 * shown is then a version that blocks, whole (its severity, confidence, scope and category from
 * the same provider), so a merge never makes a finding less blocking than what a provider said.
 *
 * @module
 */
import type { FindingSource } from "./merge.ts";
import { moreSevere } from "./policy.ts";
import type { Agreement, CouncilPolicy, Finding } from "./types.ts";

/**
 * The agreement on each merged finding.
 *
 * @param sources per merged finding (answer order), the parts and providers that reported it
 * @param council the council's providers, in order, and per part (1-based) the providers that
 *   answered it
 * @param policy which findings block
 * @param blocks when given, whether one provider's own version of a finding blocks (severity,
 *   confidence, category, scope): only providers with a blocking version count toward `enough`
 * @returns one agreement per finding, index for index with `sources`
 */
export function agreements(
  sources: readonly FindingSource[],
  council: { providers: readonly string[]; answeredBy: ReadonlyMap<number, readonly string[]> },
  policy: CouncilPolicy,
  blocks?: (finding: Finding) => boolean,
): Agreement[] {
  return sources.map((source) => {
    const saw = new Set(source.parts.flatMap((p) => council.answeredBy.get(p) ?? []));
    const of = council.providers.filter((p) => saw.has(p) || source.providers.includes(p));
    const agreed = council.providers.filter((p) => source.providers.includes(p));
    const counted = blocks && source.versions
      ? agreed.filter((p) => source.versions!.some((v) => v.provider === p && blocks(v.finding)))
      : agreed;
    return { agreed, of, enough: enoughAgree(counted.length, of.length, policy) };
  });
}

/**
 * The version of a merged finding to show and judge: when some provider's own version blocks,
 * the most severe blocking version (whole); else `null` (keep the merged finding).
 *
 * @param source who reported the finding, with each provider's own version
 * @param blocks whether one version blocks under the review policy
 */
export function blockingVersion(
  source: FindingSource,
  blocks: (finding: Finding) => boolean,
): Finding | null {
  const blocking = (source.versions ?? []).map((v) => v.finding).filter(blocks);
  if (blocking.length === 0) return null;
  return blocking.reduce((best, f) => moreSevere(f, best) ? f : best);
}

/** True when `agreed` of `of` providers are enough under `policy`. */
export function enoughAgree(agreed: number, of: number, policy: CouncilPolicy): boolean {
  if (agreed === 0) return false;
  if (policy === "all") return agreed >= of;
  if (policy === "majority") return agreed * 2 > of;
  return true;
}

/**
 * The agreement in words, e.g. `agreed: claude, codex (2 of 2)` or `only codex (1 of 2)`, with
 * `; does not block (council_policy majority)` when it is not enough.
 */
export function agreementText(agreement: Agreement, policy: CouncilPolicy): string {
  const { agreed, of } = agreement;
  const who = agreed.length === of.length
    ? `agreed: ${agreed.join(", ")} (${agreed.length} of ${of.length})`
    : `only ${agreed.join(", ")} (${agreed.length} of ${of.length}; not ${
      of.filter((p) => !agreed.includes(p)).join(", ")
    })`;
  return agreement.enough ? who : `${who}; does not block (council_policy ${policy})`;
}
