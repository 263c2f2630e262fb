/**
 * Terminal styling: colour only on a TTY and never with `NO_COLOR` (https://no-color.org).
 *
 * @module
 */

/**
 * SGR codes (open, close) of each style the renderers use: Node's `util.inspect.colors`, so the
 * text is what `node:util` styleText gives (lib/formats/style_test.ts) without loading Node
 * compatibility for it (docs/design.md "Performance notes").
 */
const SGR = {
  bold: [1, 22],
  dim: [2, 22],
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  cyan: [36, 39],
  gray: [90, 39],
} as const;

/** A style the renderers paint with. */
export type Style = keyof typeof SGR;

/** A styling function for one text format. */
export type Paint = (format: Style | readonly Style[], text: string) => string;

/** No styling at all. */
export const plain: Paint = (_format, text) => text;

/**
 * ANSI styling as `node:util` styleText does it (validateStream off: the caller decides): each
 * style's open code in order, the text — where a style's close code inside it opens the style
 * again, so nested styling survives — and the close codes in reverse order.
 */
export const ansi: Paint = (format, text) => {
  let left = "";
  let right = "";
  let body = text;
  for (const style of typeof format === "string" ? [format] : format) {
    const [open, close] = SGR[style];
    left += `\x1b[${open}m`;
    right = `\x1b[${close}m${right}`;
    // 22 ends bold and dim alike: it stays, and this style opens again after it
    const again = close === 22 ? `\x1b[${close}m\x1b[${open}m` : `\x1b[${open}m`;
    body = body.replaceAll(`\x1b[${close}m`, again);
  }
  return `${left}${body}${right}`;
};

/**
 * Choose the paint for a stream.
 *
 * @param isTerminal whether the stream is a TTY
 * @param env the environment (NO_COLOR set to anything non-empty disables colour)
 */
export function choosePaint(isTerminal: boolean, env: Record<string, string | undefined>): Paint {
  return isTerminal && !env.NO_COLOR ? ansi : plain;
}
