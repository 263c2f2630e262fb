import assert from "node:assert/strict";
import { countTextLines, decodeDiffText, decodeText } from "./text_encoding.ts";

const utf16le = (text: string) => {
  const out = new Uint8Array(2 + text.length * 2);
  out.set([0xff, 0xfe]);
  for (let i = 0; i < text.length; i++) {
    out[2 + 2 * i] = text.charCodeAt(i) & 0xff;
    out[3 + 2 * i] = text.charCodeAt(i) >> 8;
  }
  return out;
};
const utf16be = (text: string) => {
  const le = utf16le(text);
  const out = new Uint8Array(le.length);
  for (let i = 0; i < le.length; i += 2) [out[i], out[i + 1]] = [le[i + 1], le[i]];
  return out;
};
const enc = new TextEncoder();

Deno.test("decodeText() decodes by byte-order mark and keeps CRLF", () => {
  const script = 'Write-Host "hällo"\r\nGet-Item x\r\n';
  assert.deepEqual(decodeText(utf16le(script)), {
    ok: true,
    text: script,
    encoding: "UTF-16LE",
    crlf: true,
  });
  assert.deepEqual(decodeText(utf16be("a\nb\n")), {
    ok: true,
    text: "a\nb\n",
    encoding: "UTF-16BE",
    crlf: false,
  });
  assert.deepEqual(decodeText(new Uint8Array([0xef, 0xbb, 0xbf, 0x61, 0x0a])), {
    ok: true,
    text: "a\n",
    encoding: "UTF-8 with BOM",
    crlf: false,
  });
  assert.deepEqual(decodeText(enc.encode("plain ü\n")), {
    ok: true,
    text: "plain ü\n",
    encoding: "UTF-8",
    crlf: false,
  });
  assert.deepEqual(decodeText(new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a])), {
    ok: true,
    text: "café\n",
    encoding: "windows-1252",
    crlf: false,
  });
});

Deno.test("decodeText() refuses what is not text: binary, broken UTF-16, UTF-32, NUL characters", () => {
  const table: [string, Uint8Array, "binary" | "undecodable"][] = [
    ["NUL without BOM", new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]), "binary"],
    ["lone surrogate", new Uint8Array([0xff, 0xfe, 0x00, 0xd8, 0x41, 0x00]), "undecodable"],
    ["odd length", new Uint8Array([0xff, 0xfe, 0x41]), "undecodable"],
    ["UTF-32LE", new Uint8Array([0xff, 0xfe, 0, 0, 0x41, 0, 0, 0]), "undecodable"],
    ["NUL character", utf16le("a\0b"), "undecodable"],
    ["UTF-8 BOM, bad bytes", new Uint8Array([0xef, 0xbb, 0xbf, 0xff, 0xfe]), "undecodable"],
  ];
  for (const [name, bytes, reason] of table) {
    assert.deepEqual(decodeText(bytes), { ok: false, reason }, name);
  }
});

Deno.test("decodeDiffText() decodes invalid UTF-8 content lines as windows-1252, paths as UTF-8", () => {
  const header = enc.encode("diff --git a/ü.txt b/ü.txt\n--- a/ü.txt\n+++ b/ü.txt\n@@ -1 +1 @@\n");
  const body = new Uint8Array([0x2d, 0x63, 0x61, 0x66, 0xe9, 0x0a, 0x2b, 0xc3, 0xa9, 0x0a]);
  const bytes = new Uint8Array([...header, ...body]);
  const { text, fallback } = decodeDiffText(bytes);
  assert.equal(fallback, true);
  assert.ok(text.startsWith("diff --git a/ü.txt b/ü.txt\n"));
  assert.ok(text.endsWith("-café\n+é\n"), JSON.stringify(text));
  assert.deepEqual(decodeDiffText(enc.encode("diff --git a/x b/x\n")), {
    text: "diff --git a/x b/x\n",
    fallback: false,
  });
});

Deno.test("countTextLines() counts UTF-16 lines by characters and others by line feeds", () => {
  const table: [string, number][] = [["", 0], ["a", 1], ["a\n", 1], ["a\r\nb", 2], ["\n\n", 2]];
  for (const [text, n] of table) {
    assert.equal(countTextLines(enc.encode(text)), n, JSON.stringify(text));
    if (text) assert.equal(countTextLines(utf16le(text)), n, `UTF-16LE ${JSON.stringify(text)}`);
  }
  // U+0A0A holds two 0x0A bytes in UTF-16 but is one character on one line
  assert.equal(countTextLines(utf16le("\u0a0a\n")), 1);
  assert.equal(countTextLines(utf16be("x\ny\n")), 2);
});

Deno.test("decodeDiffText() decodes runs of mixed lines as each line alone would be", () => {
  const enc = new TextEncoder();
  const latin1 = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
  const lines = [
    enc.encode("diff --git a/caf\u00e9 b/caf\u00e9\n"),
    enc.encode("@@ -1,4 +1,4 @@\n"),
    latin1("-caf\xe9\n"),
    latin1("+th\xe9\n"),
    enc.encode("+na\u00efve \u20ac\n"),
    enc.encode(" plain\n"),
    latin1("+\x80 last"),
  ];
  const bytes = new Uint8Array(lines.reduce((n, l) => n + l.length, 0));
  let at = 0;
  for (const line of lines) {
    bytes.set(line, at);
    at += line.length;
  }
  const { text, fallback } = decodeDiffText(bytes);
  assert.equal(fallback, true);
  assert.equal(
    text,
    "diff --git a/caf\u00e9 b/caf\u00e9\n@@ -1,4 +1,4 @@\n-caf\u00e9\n+th\u00e9\n" +
      "+na\u00efve \u20ac\n plain\n+\u20ac last",
  );
});
