import { equal } from "node:assert/strict";
import { sanitizeForTerminal, sanitizeLine } from "./sanitize.ts";

Deno.test("sanitizeForTerminal() neutralises escape sequences and keeps newlines and tabs", () => {
  equal(sanitizeForTerminal("ok\tline\nnext"), "ok\tline\nnext");
  equal(sanitizeForTerminal("\x1b]0;pwned\x07title"), "\\u{1b}]0;pwned\\u{7}title");
  equal(sanitizeForTerminal("erase\r\x1b[1A\x1b[2K"), "erase\\u{d}\\u{1b}[1A\\u{1b}[2K");
  equal(sanitizeForTerminal("c1 \u009b31m del \u007f"), "c1 \\u{9b}31m del \\u{7f}");
});

Deno.test("sanitizeForTerminal() neutralises Unicode bidi controls and LRM/RLM marks", () => {
  for (
    const code of [
      0x200e,
      0x200f,
      0x202a,
      0x202b,
      0x202c,
      0x202d,
      0x202e,
      0x2066,
      0x2067,
      0x2068,
      0x2069,
    ]
  ) {
    const c = String.fromCharCode(code);
    equal(sanitizeForTerminal(`a${c}b`), `a\\u{${code.toString(16)}}b`);
  }
  equal(sanitizeForTerminal("é ü — ✓ \u200b"), "é ü — ✓ \u200b", "other non-ASCII text stays");
});

Deno.test("sanitizeLine() leaves one line: no line break, tab or control character starts another", () => {
  const injected = "x\n::error title=a::approved\r\n::stop-commands::t\u2028y\tz\x1b[2K";
  const line = sanitizeLine(injected);
  equal(
    line,
    "x\\u{a}::error title=a::approved\\u{d}\\u{a}::stop-commands::t\\u{2028}y\\u{9}z\\u{1b}[2K",
  );
  equal(
    sanitizeLine("shard 2 of 3 (parts 1 and 4 of 6): é — ✓"),
    "shard 2 of 3 (parts 1 and 4 of 6): é — ✓",
  );
});
