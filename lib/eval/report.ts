/**
 * Putting an eval's scored runs together into its record (lib/eval/record.ts), pure: per provider
 * column the scores of all its runs, of each repeat and of each kind of case, the spread between
 * repeats and the cases whose outcome changed between them.
 *
 * @module
 */
import { compareCodeUnits } from "../base/compare.ts";
import type { ProviderResult, RunResult } from "./record.ts";
import { kindScoresOf, scoresOf, spreadOf, unstableCases } from "./scores.ts";

/** A column as resolved: its label, provider, the model asked for and a council's providers. */
export interface ResolvedColumn {
  label: string;
  provider: string;
  model?: string;
  council?: string[];
}

/**
 * The result of one provider column.
 *
 * @param column the column
 * @param runs its runs that ran (any order; sorted here by case, then repeat)
 * @param repeats how many repeats were asked for (`--repeat`)
 */
export function providerResult(
  column: ResolvedColumn,
  runs: readonly RunResult[],
  repeats: number,
): ProviderResult {
  const sorted = [...runs].sort((a, b) => compareCodeUnits(a.case, b.case) || a.repeat - b.repeat);
  const perRepeat = Array.from(
    { length: repeats },
    (_, i) => scoresOf(sorted.filter((r) => r.repeat === i + 1)),
  );
  const models = new Set(sorted.flatMap((r) => r.model === undefined ? [] : [r.model]));
  const spread = spreadOf(perRepeat);
  return {
    label: column.label,
    provider: column.provider,
    ...(column.model !== undefined ? { model: column.model } : {}),
    ...(models.size === 1 ? { reportedModel: [...models][0] } : {}),
    ...(column.council ? { council: column.council } : {}),
    scores: scoresOf(sorted),
    repeats: perRepeat,
    ...(repeats > 1 ? { spread } : {}),
    unstable: repeats > 1 ? unstableCases(sorted) : [],
    kinds: kindScoresOf(sorted),
    runs: sorted,
  };
}
