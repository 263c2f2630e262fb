/**
 * How review-gate writes how long something took, so every command rounds alike (`review` and
 * `result` print a review's time, `status` a job's): tenths of a second; and how it reads an age
 * typed on the command line (`prune --older-than 30d`).
 *
 * @module
 */

/**
 * A duration in seconds with one decimal, e.g. `0.8 s`, `12.0 s`.
 *
 * @param ms milliseconds (negative reads as 0)
 */
export function secondsText(ms: number): string {
  return `${(Math.max(0, ms) / 1000).toFixed(1)} s`;
}

/** The units {@linkcode parseAge} takes, in milliseconds. */
const AGE_UNITS: Readonly<Record<string, number>> = {
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/**
 * Read an age such as `30d`: a whole number and a unit — `s` seconds, `m` minutes, `h` hours, `d`
 * days, `w` weeks.
 *
 * @param text the age as typed
 * @returns milliseconds, or `null` for any other form
 */
export function parseAge(text: string): number | null {
  const match = /^(\d{1,6})([smhdw])$/.exec(text.trim());
  return match ? Number(match[1]) * AGE_UNITS[match[2]] : null;
}
