/**
 * Horizontal grouped bar charts as inline SVG, pure: one group per row label, one bar per series
 * (a provider column), each with its value written beside it; a value that was not there to count
 * is "—", no bar. Every label is HTML-escaped ({@linkcode escapeHtml}): the chart is inlined in the
 * eval's html report (lib/eval/render_html.ts), which loads nothing from anywhere.
 *
 * @module
 */

/** The series' colours, in order (repeating past the last). */
export const SERIES_COLOURS: readonly string[] = [
  "#2f6fb3",
  "#d9822b",
  "#3a9d5d",
  "#8e5bb5",
  "#c4453c",
  "#4f8f9e",
];

/**
 * Text safe inside HTML and SVG, as text or as a quoted attribute value.
 *
 * @example
 * ```ts
 * import { escapeHtml } from "./svg_bars.ts";
 * escapeHtml(`<img src=x onerror="a">&'`); // "&lt;img src=x onerror=&quot;a&quot;&gt;&amp;&#39;"
 * ```
 */
export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) =>
      c === "&"
        ? "&amp;"
        : c === "<"
        ? "&lt;"
        : c === ">"
        ? "&gt;"
        : c === '"'
        ? "&quot;"
        : "&#39;",
  );
}

/** One group of bars: its label and one value (0..1, or null) per series. */
export interface BarGroup {
  label: string;
  values: readonly (number | null)[];
  /** What a value reads as (default: a percentage). */
  text?: (value: number) => string;
}

const LABEL_WIDTH = 240;
const BAR_WIDTH = 380;
const VALUE_WIDTH = 70;
const BAR_HEIGHT = 14;
const BAR_GAP = 3;
const GROUP_GAP = 14;

/**
 * A chart of groups of bars.
 *
 * @param groups the rows, top to bottom
 * @param title the chart's accessible name
 * @returns one `<svg>` element
 */
export function barChart(groups: readonly BarGroup[], title: string): string {
  const series = Math.max(1, ...groups.map((g) => g.values.length));
  const groupHeight = series * (BAR_HEIGHT + BAR_GAP) - BAR_GAP;
  const height = groups.length * (groupHeight + GROUP_GAP) + GROUP_GAP;
  const width = LABEL_WIDTH + BAR_WIDTH + VALUE_WIDTH;
  const parts: string[] = [];
  groups.forEach((group, g) => {
    const top = GROUP_GAP + g * (groupHeight + GROUP_GAP);
    parts.push(
      `<text x="${LABEL_WIDTH - 8}" y="${
        top + groupHeight / 2 + 4
      }" text-anchor="end" class="label">${escapeHtml(group.label)}</text>`,
    );
    group.values.forEach((value, s) => {
      const y = top + s * (BAR_HEIGHT + BAR_GAP);
      const text = value === null ? "—" : (group.text ?? percentText)(value);
      const length = value === null ? 0 : Math.max(0, Math.min(1, value)) * BAR_WIDTH;
      parts.push(
        `<rect x="${LABEL_WIDTH}" y="${y}" width="${BAR_WIDTH}" height="${BAR_HEIGHT}" class="track"/>`,
        `<rect x="${LABEL_WIDTH}" y="${y}" width="${
          length.toFixed(1)
        }" height="${BAR_HEIGHT}" fill="${SERIES_COLOURS[s % SERIES_COLOURS.length]}"/>`,
        `<text x="${LABEL_WIDTH + BAR_WIDTH + 6}" y="${y + BAR_HEIGHT - 3}" class="value">${
          escapeHtml(text)
        }</text>`,
      );
    });
  });
  return `<svg role="img" aria-label="${
    escapeHtml(title)
  }" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">${parts.join("")}</svg>`;
}

/** `0.5` → `50%` (one decimal when not whole). */
function percentText(value: number): string {
  const p = value * 100;
  return `${Number.isInteger(p) ? p : p.toFixed(1)}%`;
}
