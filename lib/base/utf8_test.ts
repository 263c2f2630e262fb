/** lib/base/utf8.ts judges UTF-8 as `node:buffer` isUtf8 does. */
import assert from "node:assert/strict";
import { isUtf8 as nodeIsUtf8 } from "node:buffer";
import { isUtf8 } from "./utf8.ts";

/** Bytes at every boundary of UTF-8's lead and continuation ranges. */
const EDGES = [
  0x00,
  0x41,
  0x7f,
  0x80,
  0x8f,
  0x90,
  0x9f,
  0xa0,
  0xbf,
  0xc0,
  0xc1,
  0xc2,
  0xdf,
  0xe0,
  0xe1,
  0xec,
  0xed,
  0xee,
  0xef,
  0xf0,
  0xf1,
  0xf3,
  0xf4,
  0xf5,
  0xff,
];

Deno.test("isUtf8 agrees with node:buffer on every sequence of up to three edge bytes", () => {
  for (const a of EDGES) {
    assert.equal(isUtf8(Uint8Array.of(a)), nodeIsUtf8(Uint8Array.of(a)));
    for (const b of EDGES) {
      for (const c of [...EDGES, -1]) {
        const bytes = c < 0 ? Uint8Array.of(a, b) : Uint8Array.of(a, b, c);
        assert.equal(isUtf8(bytes), nodeIsUtf8(bytes), `${[...bytes].map((x) => x.toString(16))}`);
      }
    }
  }
});

Deno.test("isUtf8 agrees with node:buffer on random four-byte sequences, views and text", () => {
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 16;
  for (let k = 0; k < 50_000; k++) {
    const whole = Uint8Array.from({ length: 6 }, () => EDGES[next() % EDGES.length]);
    const view = whole.subarray(k % 3, 3 + (k % 3)); // a view with an offset, as patches are read
    assert.equal(isUtf8(view), nodeIsUtf8(view), `${[...view].map((x) => x.toString(16))}`);
    assert.equal(isUtf8(whole), nodeIsUtf8(whole));
  }
  const text = new TextEncoder().encode("é ✓ 𝄞 plain\n".repeat(100));
  assert.equal(isUtf8(text), true);
  assert.equal(isUtf8(new Uint8Array(0)), true);
  assert.equal(isUtf8(Uint8Array.of(0x63, 0x61, 0x66, 0xe9)), false); // "café" in windows-1252
});

Deno.test("isUtf8 agrees with node:buffer on long views at every alignment, an edge byte anywhere", () => {
  // long enough for the four-bytes-at-a-time ASCII path; the edge byte (and what follows it) at
  // every position of a word, the view at every offset of its buffer
  const ascii = new TextEncoder().encode("plain ascii text of a patch, line after line.\n");
  for (let offset = 0; offset < 8; offset++) {
    for (let at = 0; at < 44; at++) {
      for (const edge of EDGES) {
        for (const tail of [[], [0x80], [0xbf, 0x80], [0x90, 0x80, 0x80], [0x41]]) {
          const buffer = new Uint8Array(offset + ascii.length + 4);
          buffer.set(ascii, offset);
          buffer[offset + at] = edge;
          buffer.set(tail, offset + at + 1);
          const view = buffer.subarray(offset, offset + ascii.length);
          assert.equal(isUtf8(view), nodeIsUtf8(view), `offset ${offset}, at ${at}, ${edge}`);
        }
      }
    }
  }
  const long = new TextEncoder().encode("é ✓ 𝄞 plain ascii runs between them\n".repeat(50));
  for (let offset = 0; offset < 4; offset++) {
    assert.equal(isUtf8(long.subarray(offset)), nodeIsUtf8(long.subarray(offset)));
  }
});
