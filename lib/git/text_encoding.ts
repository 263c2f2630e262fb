/**
 * Text in encodings git does not diff (pure). git calls any file with a NUL byte in its first
 * 8000 bytes binary, and UTF-16 text is full of them, so a PowerShell script saved as UTF-16LE
 * would reach no reviewer. A byte-order mark (BOM) says how such bytes decode: UTF-16LE
 * (`FF FE`), UTF-16BE (`FE FF`), UTF-8 (`EF BB BF`). {@linkcode decodeText} decodes a file's bytes
 * by its BOM, or as UTF-8 when there is none and git's NUL test says text; what still does not
 * decode is "binary" (no BOM) or "undecodable" (a BOM the bytes do not honour, UTF-32, or text
 * with NUL characters). Line ends (CRLF) are kept as they are.
 *
 * {@linkcode decodeDiffText} decodes git's own text diffs: UTF-8, or per line windows-1252 for
 * lines that are not valid UTF-8 (every byte has a character there, so nothing is replaced by
 * U+FFFD and lost to the reviewer).
 *
 * @module
 */
import { isUtf8 } from "../base/utf8.ts";

/** A decoded file, or why it cannot be shown as text. */
export type DecodedText =
  | { ok: true; text: string; encoding: string; crlf: boolean }
  | { ok: false; reason: "binary" | "undecodable" };

/** Bytes git inspects for a NUL to call a file binary (`buffer_is_binary`, xdiff-interface.c). */
const GIT_BINARY_SCAN = 8000;

const BOMS: { bytes: number[]; encoding: string; label: string }[] = [
  { bytes: [0xff, 0xfe, 0x00, 0x00], encoding: "", label: "UTF-32LE" },
  { bytes: [0x00, 0x00, 0xfe, 0xff], encoding: "", label: "UTF-32BE" },
  { bytes: [0xef, 0xbb, 0xbf], encoding: "utf-8", label: "UTF-8 with BOM" },
  { bytes: [0xff, 0xfe], encoding: "utf-16le", label: "UTF-16LE" },
  { bytes: [0xfe, 0xff], encoding: "utf-16be", label: "UTF-16BE" },
];

/**
 * Decode a file's bytes as text.
 *
 * @param bytes the whole file (a blob)
 * @returns the text (BOM removed), the encoding's name ("UTF-8", "UTF-16LE", "UTF-16BE",
 *   "UTF-8 with BOM", "windows-1252") and whether it has CRLF line ends; or the reason it cannot
 *   be shown
 */
export function decodeText(bytes: Uint8Array): DecodedText {
  const bom = BOMS.find((b) => b.bytes.every((x, i) => bytes[i] === x));
  if (bom) {
    if (bom.encoding === "") return { ok: false, reason: "undecodable" };
    let text: string;
    try {
      text = new TextDecoder(bom.encoding, { fatal: true }).decode(bytes);
    } catch {
      return { ok: false, reason: "undecodable" };
    }
    if (text.includes("\0")) return { ok: false, reason: "undecodable" };
    return { ok: true, text, encoding: bom.label, crlf: text.includes("\r\n") };
  }
  if (bytes.subarray(0, GIT_BINARY_SCAN).includes(0)) return { ok: false, reason: "binary" };
  const fallback = !isUtf8(bytes);
  const text = fallback ? latin.decode(bytes) : lenient.decode(bytes);
  return {
    ok: true,
    text,
    encoding: fallback ? "windows-1252" : "UTF-8",
    crlf: text.includes("\r\n"),
  };
}

const lenient = new TextDecoder();
const latin = new TextDecoder("windows-1252");

/**
 * Decode git's diff text of one file: as UTF-8 when it all is; otherwise line by line, the header
 * lines as UTF-8 (paths) and each other line as UTF-8 when valid, else as windows-1252. Neighbouring
 * lines of one kind are decoded in one call (a file in one legacy encoding is one call, not one
 * per line); validity is checked, never thrown.
 *
 * @param bytes one `diff --git` section
 * @returns the text and whether any line needed windows-1252
 */
export function decodeDiffText(bytes: Uint8Array): { text: string; fallback: boolean } {
  if (isUtf8(bytes)) return { text: lenient.decode(bytes), fallback: false };
  const parts: string[] = [];
  let inHunks = false;
  let runStart = 0;
  let runLatin = false;
  let pos = 0;
  while (pos < bytes.length) {
    const nl = bytes.indexOf(0x0a, pos);
    const end = nl < 0 ? bytes.length : nl + 1;
    if (!inHunks && bytes[pos] === 0x40 && bytes[pos + 1] === 0x40) inHunks = true;
    const latinLine = inHunks && !isUtf8(bytes.subarray(pos, end));
    if (latinLine !== runLatin && pos > runStart) {
      const run = bytes.subarray(runStart, pos);
      parts.push(runLatin ? latin.decode(run) : lenient.decode(run));
      runStart = pos;
    }
    runLatin = latinLine;
    pos = end;
  }
  const run = bytes.subarray(runStart);
  parts.push(runLatin ? latin.decode(run) : lenient.decode(run));
  return { text: parts.join(""), fallback: true };
}

/**
 * Lines of a file as a reader sees them: UTF-16 files (by their BOM) count their decoded line
 * feeds, others their 0x0A bytes; plus one for a last line without a newline.
 *
 * @param bytes the file's bytes
 */
export function countTextLines(bytes: Uint8Array): number {
  const bom = BOMS.find((b) => b.bytes.every((x, i) => bytes[i] === x));
  if (bom?.encoding.startsWith("utf-16")) {
    const text = new TextDecoder(bom.encoding).decode(bytes);
    const feeds = text.split("\n").length - 1;
    return text.length > 0 && !text.endsWith("\n") ? feeds + 1 : feeds;
  }
  let n = 0;
  for (let pos = bytes.indexOf(0x0a); pos >= 0; pos = bytes.indexOf(0x0a, pos + 1)) n++;
  return bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a ? n + 1 : n;
}
