/**
 * Merging review answers (pure): the answers of a chunked review's parts, or of a council's
 * providers, become one answer that fits the review schema. Findings are deduplicated: exact
 * duplicates, and the same issue reported at overlapping lines of the same file with a similar
 * title, collapse into one finding: the most severe report, whole (its scope, category, text, range
 * and confidence stay together; a tie goes to the higher confidence), and the merge remembers every
 * source that reported it with that source's own version, so a council decides blocking per
 * provider's own finding (lib/kinds/review/council.ts). The verdict is
 * "needs-attention" when any finding is left, else "approve".
 *
 * @module
 */
import { moreSevere, sortFindings } from "./policy.ts";
import type { Finding, ReviewAnswer } from "./types.ts";

/** One answer to merge and where it came from. */
export interface SourcedAnswer {
  answer: ReviewAnswer;
  /** The part (1-based chunk number) that produced it. */
  part: number;
  /** The provider that produced it. */
  provider: string;
}

/** Who reported a merged finding. */
export interface FindingSource {
  /** Chunk numbers (1-based), ascending. */
  parts: number[];
  /** Provider names, in first-seen order. */
  providers: string[];
  /** Every report of the finding, as its provider gave it, in answer order. */
  versions?: { provider: string; part: number; finding: Finding }[];
}

/** The merged answer and, per finding (same order), who reported it. */
export interface MergedAnswer {
  answer: ReviewAnswer;
  sources: FindingSource[];
}

/** Most next steps kept in a merged answer. */
const MAX_NEXT_STEPS = 20;

/**
 * Merge answers.
 *
 * @param answers the answers, in part order (then provider order)
 * @param labels how a summary names its source: `"part"` (chunked) or `"provider"` (council)
 * @returns one schema-valid answer: deduplicated findings sorted most severe first, summaries
 *   joined with their source, distinct next steps
 */
export function mergeAnswers(
  answers: readonly SourcedAnswer[],
  labels: { count: number; by: "part" | "provider" | "both" },
): MergedAnswer {
  const kept: { finding: Finding; source: FindingSource }[] = [];
  for (const { answer, part, provider } of answers) {
    for (const finding of answer.findings) {
      const same = kept.find((k) => sameIssue(k.finding, finding));
      if (!same) {
        const versions = [{ provider, part, finding }];
        kept.push({
          finding: { ...finding },
          source: { parts: [part], providers: [provider], versions },
        });
        continue;
      }
      if (!same.source.parts.includes(part)) same.source.parts.push(part);
      if (!same.source.providers.includes(provider)) same.source.providers.push(provider);
      same.source.versions!.push({ provider, part, finding });
      if (moreSevere(finding, same.finding)) same.finding = { ...finding };
    }
  }
  const sorted = sortFindings(kept.map((k) => k.finding));
  const sources = sorted.map((f) => {
    const source = kept.find((k) => k.finding === f)!.source;
    const parts = [...source.parts].sort((a, b) => a - b);
    return { parts, providers: source.providers, versions: source.versions };
  });
  const steps = [...new Set(answers.flatMap((a) => a.answer.next_steps))].slice(0, MAX_NEXT_STEPS);
  return {
    answer: {
      verdict: sorted.length > 0 ? "needs-attention" : "approve",
      summary: summaryOf(answers, labels),
      findings: sorted,
      next_steps: steps,
    },
    sources,
  };
}

function summaryOf(
  answers: readonly SourcedAnswer[],
  labels: { count: number; by: "part" | "provider" | "both" },
): string {
  if (answers.length === 1) return answers[0].answer.summary;
  const name = (a: SourcedAnswer) =>
    labels.by === "part"
      ? `Part ${a.part} of ${labels.count}`
      : labels.by === "provider"
      ? a.provider
      : `${a.provider}, part ${a.part} of ${labels.count}`;
  return answers.map((a) => `${name(a)}: ${a.answer.summary.trim()}`).join("\n\n");
}

/**
 * True when two findings report the same issue: the same file, and either the very same lines
 * and title, or overlapping lines and a similar title (half the title words shared, or one title
 * containing the other).
 */
export function sameIssue(a: Finding, b: Finding): boolean {
  if (a.file !== b.file) return false;
  const ta = normalise(a.title);
  const tb = normalise(b.title);
  if (a.line_start === b.line_start && a.line_end === b.line_end && ta === tb) return true;
  const overlap = a.line_start <= b.line_end && b.line_start <= a.line_end;
  return overlap && similar(ta, tb);
}

function normalise(title: string): string {
  return title.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();
}

function similar(a: string, b: string): boolean {
  if (a === b || (a.length > 0 && b.length > 0 && (a.includes(b) || b.includes(a)))) return true;
  const wa = new Set(a.split(" ").filter((w) => w.length > 2));
  const wb = new Set(b.split(" ").filter((w) => w.length > 2));
  if (wa.size === 0 || wb.size === 0) return false;
  const shared = [...wa].filter((w) => wb.has(w)).length;
  return shared / Math.min(wa.size, wb.size) >= 0.5;
}
