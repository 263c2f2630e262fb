import assert from "node:assert/strict";
import { HOSTILE, ORDINARY, ORDINARY_TEXT } from "../../fixtures/hostile_text.ts";
import { allText, assertInert, renderGfm } from "../../test/markdown/inert_check.ts";
import { inertMarkdown } from "./inert_markdown.ts";

/** Whitespace runs as one space, no blank at either end. */
const squash = (text: string) => text.replace(/\s+/g, " ").trim();

Deno.test("inertMarkdown() leaves every hostile string inert in every place it is put", () => {
  for (const text of HOSTILE) {
    const block = inertMarkdown(text, "block");
    assertInert(`## Summary\n\n${block}\n\n**Recommendation:** ${block}\n`, {
      headings: ["Summary"],
    });
    const line = inertMarkdown(text, "line");
    assertInert(`### HIGH (blocking): ${line}\n\n- ${line}\n- Change: ${line}\n\n> ${line}\n`, {
      headings: ["HIGH (blocking): "],
      tags: ["p", "ul", "li", "code", "strong", "em", "s", "blockquote"],
    });
    const code = inertMarkdown(text, "code");
    assertInert(`${code} · confidence 0.90\n\n- excluded by rule: ${code} (x)\n`, { headings: [] });
  }
});

Deno.test("inertMarkdown() keeps the words: hostile text renders as what it says", () => {
  for (const raw of HOSTILE) {
    // the characters a terminal shows escaped are shown escaped here too
    const text = raw.replace(/\r\n?/g, "\n").replace(
      // deno-lint-ignore no-control-regex
      /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/g,
      (c) => `\\u{${c.charCodeAt(0).toString(16)}}`,
    );
    if (text.includes("`")) continue; // the model's own code spans lose their backticks
    for (const place of ["block", "line", "code"] as const) {
      const shown = allText(renderGfm(inertMarkdown(raw, place)));
      assert.equal(squash(shown), squash(text), `${place}: ${JSON.stringify(raw)}`);
    }
  }
});

Deno.test("inertMarkdown() keeps ordinary text and the model's code spans as they read", () => {
  assert.equal(squash(allText(renderGfm(inertMarkdown(ORDINARY, "block")))), ORDINARY_TEXT);
  assert.match(renderGfm(inertMarkdown(ORDINARY, "line")), /<code>foo_bar\(\)<\/code>/);
  // plain prose is written as it is: nothing to escape
  const prose = "Check the length before slicing; an empty list crashes (see parse.ts line 3).";
  assert.equal(inertMarkdown(prose, "block"), prose);
  assert.equal(inertMarkdown("two\nlines", "line"), "two lines");
  assert.equal(inertMarkdown("first\n\n  second", "block"), "first\n\nsecond");
});

Deno.test("inertMarkdown() code spans hold any backticks and cannot touch a neighbour's", () => {
  assert.equal(inertMarkdown("a``b", "code"), "```a``b```");
  assert.equal(inertMarkdown("`x`", "code"), "`` `x` ``");
  assert.equal(inertMarkdown("", "code"), "");
  // a mention right before the model's code span: two code spans, not one broken run
  const html = renderGfm(inertMarkdown("cc @you`x`", "line"));
  assert.match(html, /<code>@you<\/code> <code>x<\/code>/);
});

Deno.test("inertMarkdown() keeps the model's fenced code as code, with no info string", () => {
  const sample =
    "Use a guard:\n```ts\nif (xs.length === 0) return [];\nconst first = xs[0]; // <b>\n```\nThen retry.";
  const html = renderGfm(inertMarkdown(sample, "block"));
  assert.match(
    html,
    /<pre><code>if \(xs\.length === 0\) return \[\];\nconst first = xs\[0\]; \/\/ &lt;b&gt;\n<\/code><\/pre>/,
  );
  assert.match(html, /<p>Then retry\.<\/p>/);
  // a mermaid or geojson fence loses its info string: GitHub renders those as active content
  const mermaid = renderGfm(inertMarkdown("```mermaid\ngraph TD; A-->B\n```", "block"));
  assert.doesNotMatch(mermaid, /language-/);
  assert.match(mermaid, /<pre><code>graph TD; A--&gt;B\n<\/code><\/pre>/);
  // a fence right after a label of ours still starts its own line
  const after = renderGfm(
    `**Recommendation:** ${inertMarkdown("```\n![x](http://h/)\n```", "block")}`,
  );
  assert.match(after, /<pre><code>!\[x\]\(http:\/\/h\/\)\n<\/code><\/pre>/);
  // backticks or tildes inside cannot close our fence; an unclosed fence runs to the end
  const inner = renderGfm(inertMarkdown("~~~\n````\n<img src=x>\n", "block") + "\n\nafter");
  assert.match(inner, /<pre><code>````\n&lt;img src=x&gt;\n\n<\/code><\/pre>\n<p>after<\/p>/);
});
