/**
 * Test-only: render Markdown with a real CommonMark renderer with GFM's tables, strikethrough and
 * autolink literals (markdown-it, raw HTML passed through as GitHub lets most of it through), and
 * assert that nothing the model wrote did anything (README.md "Security model": the model's words
 * stay words). markdown-it is a dev dependency: no product file imports it.
 *
 * @module
 */
import assert from "node:assert/strict";
import MarkdownIt from "markdown-it";

const md = new MarkdownIt({ html: true, linkify: true });

/**
 * Render Markdown to HTML as GitHub would, minus GitHub's own filters (which
 * {@linkcode assertInert} checks for by hand: mentions, issue references).
 */
export function renderGfm(markdown: string): string {
  return md.render(markdown);
}

/** What an output may hold after rendering. */
export interface InertExpectation {
  /**
   * The headings the output's own structure makes, in order: each rendered heading's text must
   * start with the matching prefix (or match the pattern), and there must be exactly as many.
   */
  headings: readonly (string | RegExp)[];
  /** HTML elements the output's own structure makes besides headings (default: p, ul, li, code, pre, strong, em, s). */
  tags?: readonly string[];
}

const DEFAULT_TAGS = ["p", "ul", "li", "code", "pre", "strong", "em", "s"];

const INVISIBLE =
  // deno-lint-ignore no-control-regex
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]/;

/** The HTML's text outside code: tags removed, code elements dropped, entities decoded. */
export function proseText(html: string): string {
  return decode(html.replace(/<(code|pre)\b[^>]*>[\s\S]*?<\/\1>/g, " ").replace(/<[^>]*>/g, ""));
}

/** All the HTML's text, code included, tags removed and entities decoded. */
export function allText(html: string): string {
  return decode(html.replace(/<[^>]*>/g, ""));
}

function decode(text: string): string {
  return text.replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&quot;", '"')
    .replaceAll("&#39;", "'").replaceAll("&amp;", "&");
}

/**
 * Assert rendered Markdown is inert: no image, link, HTML element or comment beyond the output's
 * own, no heading beyond its own, no text GitHub would turn into a mention, an autolink or an
 * issue reference, no invisible or control character.
 *
 * @param markdown the output, as written
 * @param expect the output's own structure
 * @throws {AssertionError} naming the first thing that took effect
 */
export function assertInert(markdown: string, expect: InertExpectation): void {
  const html = renderGfm(markdown);
  const allowed = new Set([...(expect.tags ?? DEFAULT_TAGS), "h1", "h2", "h3", "h4", "h5", "h6"]);
  for (const [, tag] of html.matchAll(/<\/?([a-zA-Z][\w-]*)/g)) {
    assert.ok(allowed.has(tag.toLowerCase()), `<${tag}> in the rendered output:\n${html}`);
  }
  assert.ok(!html.includes("<!--"), `an HTML comment took effect:\n${html}`);
  const headings = [...html.matchAll(/<h[1-6]>([\s\S]*?)<\/h[1-6]>/g)].map((m) => allText(m[1]));
  assert.equal(headings.length, expect.headings.length, `headings: ${JSON.stringify(headings)}`);
  headings.forEach((h, i) => {
    const want = expect.headings[i];
    const ok = typeof want === "string" ? h.startsWith(want) : want.test(h);
    assert.ok(ok, `heading ${i + 1}: ${h} (${want}…)`);
  });
  const prose = proseText(html);
  const mention = prose.match(/(?:^|[^\w`])@[a-z0-9]/im);
  assert.equal(mention, null, `GitHub would make a mention of ${mention?.[0]}`);
  for (const link of [/:\/\//, /\bwww\./i, /mailto:/i, /(?:^|[\s(])#\d/m, /\bGH-\d/i]) {
    assert.doesNotMatch(prose, link, `GitHub would make a link (${link}) outside code`);
  }
  assert.doesNotMatch(html, INVISIBLE, "an invisible or control character is left");
}
