/**
 * Terminal styling: colour only on a TTY and never with `NO_COLOR` (https://no-color.org).
 *
 * @module
 */
import { styleText } from "node:util";

/** A styling function for one text format. */
export type Paint = (format: Parameters<typeof styleText>[0], text: string) => string;

/** No styling at all. */
export const plain: Paint = (_format, text) => text;

/** ANSI styling through `node:util` styleText (validateStream off: the caller decides). */
export const ansi: Paint = (format, text) => styleText(format, text, { validateStream: false });

/**
 * Choose the paint for a stream.
 *
 * @param isTerminal whether the stream is a TTY
 * @param env the environment (NO_COLOR set to anything non-empty disables colour)
 */
export function choosePaint(isTerminal: boolean, env: Record<string, string | undefined>): Paint {
  return isTerminal && !env.NO_COLOR ? ansi : plain;
}
