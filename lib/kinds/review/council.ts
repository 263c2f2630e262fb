/**
 * A council review's agreement (pure): the same review plan went to two or three providers, their
 * answers were merged (lib/kinds/review/merge.ts matches the same finding across providers: same
 * file, overlapping lines, similar title), and each merged finding now says who reported it out of
 * the providers that reviewed its part. `council_policy` decides which findings block: `any` (one
 * provider is enough), `majority` (more than half of those that reviewed the part), `all` (every
 * one of them). A provider whose call for a part did not answer is not counted for that part, so a
 * finding is never judged against a provider that never saw its lines.
 *
 * @module
 */
import type { FindingSource } from "./merge.ts";
import type { Agreement, CouncilPolicy } from "./types.ts";

/**
 * The agreement on each merged finding.
 *
 * @param sources per merged finding (answer order), the parts and providers that reported it
 * @param council the council's providers, in order, and per part (1-based) the providers that
 *   answered it
 * @param policy which findings block
 * @returns one agreement per finding, index for index with `sources`
 */
export function agreements(
  sources: readonly FindingSource[],
  council: { providers: readonly string[]; answeredBy: ReadonlyMap<number, readonly string[]> },
  policy: CouncilPolicy,
): Agreement[] {
  return sources.map((source) => {
    const saw = new Set(source.parts.flatMap((p) => council.answeredBy.get(p) ?? []));
    const of = council.providers.filter((p) => saw.has(p) || source.providers.includes(p));
    const agreed = council.providers.filter((p) => source.providers.includes(p));
    return { agreed, of, enough: enoughAgree(agreed.length, of.length, policy) };
  });
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
