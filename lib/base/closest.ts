/**
 * "Did you mean …?" for a mistyped name (pure): the known names within a small edit distance of
 * it, by commander's rule for option and command suggestions — at most 3 edits (an insertion,
 * deletion, substitution or swap of two neighbours), and more than 40% of the longer name left
 * unchanged. (The command line's own suggestions come from its parser, @stricli/core, which weighs
 * edits as git does.)
 *
 * @module
 */

/** Most edits between a name and a suggestion. */
const MAX_DISTANCE = 3;
/** Least share of the longer name a suggestion must keep unchanged. */
const MIN_SIMILARITY = 0.4;

/**
 * Optimal string alignment distance: edits (insert, delete, substitute, swap two neighbours) that
 * turn `a` into `b`.
 */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.length][b.length];
}

/**
 * The known names closest to a mistyped one, nearest first (ties in the order given); empty when
 * none is near enough. Case is ignored when measuring.
 *
 * @param word the name as typed
 * @param candidates the known names
 */
export function closestNames(word: string, candidates: readonly string[]): string[] {
  const scored = candidates.flatMap((candidate) => {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    const length = Math.max(word.length, candidate.length);
    const similar = length > 0 && (length - distance) / length > MIN_SIMILARITY;
    return candidate !== word && distance <= MAX_DISTANCE && similar
      ? [{ candidate, distance }]
      : [];
  });
  const best = Math.min(...scored.map((s) => s.distance));
  return scored.filter((s) => s.distance === best).map((s) => s.candidate);
}

/** Most edits between a mistyped value and a suggested one ({@linkcode nearValues}). */
const NEAR_DISTANCE = 2;

/**
 * The known values worth suggesting for a mistyped one (pure): those within 2 edits of it, or that
 * it is a prefix of (`pre` → `pre-push`); nearest first, ties in the order given; empty when none
 * is close — a guess from far off (`gpt` → `vibe`) misleads more than it helps. Case is ignored.
 * For short closed lists (a provider, a gate) where {@linkcode closestNames}' 3 edits reach
 * everything.
 *
 * @param word the value as typed
 * @param candidates the known values
 */
export function nearValues(word: string, candidates: readonly string[]): string[] {
  const typed = word.toLowerCase();
  const scored = candidates.flatMap((candidate) => {
    const known = candidate.toLowerCase();
    if (known === typed) return [];
    const distance = editDistance(typed, known);
    const prefix = typed.length > 0 && known.startsWith(typed);
    return distance <= NEAR_DISTANCE || prefix ? [{ candidate, distance }] : [];
  });
  scored.sort((a, b) => a.distance - b.distance);
  return scored.map((s) => s.candidate);
}

/**
 * ` (did you mean "x"?)`-style tail for a mistyped value, or `""` when nothing is close
 * ({@linkcode nearValues}).
 *
 * @returns e.g. `, did you mean "vibe"?` / `, did you mean "a" or "b"?`, or `""`
 */
export function didYouMean(word: string, candidates: readonly string[]): string {
  const near = nearValues(word, candidates).slice(0, 2);
  return near.length === 0 ? "" : `, did you mean ${near.map((n) => `"${n}"`).join(" or ")}?`;
}
