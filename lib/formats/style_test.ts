/** lib/formats/style.ts paints every style the renderers use exactly as `node:util` styleText. */
import assert from "node:assert/strict";
import { styleText } from "node:util";
import { ansi, type Style } from "./style.ts";

const STYLES: Style[] = ["bold", "dim", "red", "green", "yellow", "cyan", "gray"];
const TEXTS = ["", "plain", "a\x1b[39mb", "x\x1b[22my\x1b[39mz", "\x1b[31mred\x1b[39m rest"];

Deno.test("ansi paints as node:util styleText: one style, two, and text holding close codes", () => {
  const formats: (Style | Style[])[] = [
    ...STYLES,
    ...STYLES.flatMap((a) => STYLES.map((b) => [a, b])),
  ];
  for (const format of formats) {
    for (const text of TEXTS) {
      assert.equal(
        ansi(format, text),
        styleText(format, text, { validateStream: false }),
        `${JSON.stringify(format)} ${JSON.stringify(text)}`,
      );
    }
  }
});
