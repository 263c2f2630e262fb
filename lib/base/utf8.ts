/**
 * UTF-8 validity (pure), as `node:buffer` isUtf8 and the WHATWG decoder judge it: no overlong
 * forms, no surrogates (U+D800–U+DFFF), nothing above U+10FFFF, no cut sequence. In plain
 * TypeScript because `node:buffer` starts Deno's Node compatibility layer on every review that
 * reaches it (docs/design.md "Performance notes"); a fatal `TextDecoder` would throw, slowly, on
 * every line of a legacy-encoded file. `lib/base/utf8_test.ts` holds it to `node:buffer`.
 *
 * @module
 */

/** Inputs at least this long have their ASCII runs checked four bytes at a time. */
const WORDS_FROM = 32;

/**
 * Whether `bytes` are valid UTF-8. Runs of ASCII (most of any patch) are skipped four bytes at a
 * time through a 32-bit view of the input's aligned middle: a word with no byte of 0x80 or more
 * holds four ASCII characters, whatever the byte order.
 *
 * @param bytes any bytes (an empty array is valid)
 */
export function isUtf8(bytes: Uint8Array): boolean {
  const n = bytes.length;
  // the view starts at the first byte of `bytes` whose address is a multiple of 4
  const lead = (4 - (bytes.byteOffset & 3)) & 3;
  const words = n >= WORDS_FROM
    ? new Uint32Array(bytes.buffer, bytes.byteOffset + lead, (n - lead) >>> 2)
    : null;
  let i = 0;
  while (i < n) {
    if (words !== null && i >= lead && ((i - lead) & 3) === 0) {
      let w = (i - lead) >>> 2;
      while (w < words.length && (words[w] & 0x80808080) === 0) w++;
      i = lead + (w << 2);
      if (i >= n) break;
    }
    const c = bytes[i];
    if (c < 0x80) {
      i++;
    } else if (c < 0xc2) {
      return false; // a continuation byte, or an overlong 2-byte lead
    } else if (c < 0xe0) {
      if (i + 1 >= n || (bytes[i + 1] & 0xc0) !== 0x80) return false;
      i += 2;
    } else if (c < 0xf0) {
      if (i + 2 >= n) return false;
      const c1 = bytes[i + 1];
      if ((c1 & 0xc0) !== 0x80 || (bytes[i + 2] & 0xc0) !== 0x80) return false;
      // E0 needs A0.. (no overlong form), ED at most 9F (no surrogate)
      if (c === 0xe0 ? c1 < 0xa0 : c === 0xed && c1 > 0x9f) return false;
      i += 3;
    } else if (c < 0xf5) {
      if (i + 3 >= n) return false;
      const c1 = bytes[i + 1];
      if (
        (c1 & 0xc0) !== 0x80 || (bytes[i + 2] & 0xc0) !== 0x80 || (bytes[i + 3] & 0xc0) !== 0x80
      ) return false;
      // F0 needs 90.. (no overlong form), F4 at most 8F (nothing above U+10FFFF)
      if (c === 0xf0 ? c1 < 0x90 : c === 0xf4 && c1 > 0x8f) return false;
      i += 4;
    } else {
      return false;
    }
  }
  return true;
}
