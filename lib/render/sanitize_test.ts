import { equal } from "node:assert/strict";
import { sanitizeForTerminal } from "./sanitize.ts";

Deno.test("sanitizeForTerminal() neutralises escape sequences and keeps newlines and tabs", () => {
  equal(sanitizeForTerminal("ok\tline\nnext"), "ok\tline\nnext");
  equal(sanitizeForTerminal("\x1b]0;pwned\x07title"), "\\u{1b}]0;pwned\\u{7}title");
  equal(sanitizeForTerminal("erase\r\x1b[1A\x1b[2K"), "erase\\u{d}\\u{1b}[1A\\u{1b}[2K");
  equal(sanitizeForTerminal("c1 \u009b31m del \u007f"), "c1 \\u{9b}31m del \\u{7f}");
});
