import assert from "node:assert/strict";
import { Ajv2020 } from "ajv/dist/2020.js";
import schema from "../../schemas/eval_report.schema.json" with { type: "json" };
import { renderEval } from "./render.ts";
import { HOSTILE_TITLE, testReport } from "./_test_report.ts";
import { assertInert } from "../../test/markdown/inert_check.ts";

Deno.test("the json format is the record, valid against schemas/eval_report.schema.json", async () => {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  const validate = ajv.compile(schema);
  const record = JSON.parse(await renderEval("json", testReport()));
  assert.ok(validate(record), JSON.stringify(validate.errors, null, 2));
  assert.deepEqual(record, JSON.parse(JSON.stringify(testReport())));
  // a field the schema does not know is refused: the schema is closed
  assert.equal(validate({ ...record, extra: 1 }), false);
});

Deno.test("the terminal format: providers side by side, spread, kinds, what did not answer, PARTIAL", async () => {
  const text = await renderEval("terminal", testReport());
  const lines = text.split("\n");
  assert.match(
    lines[0],
    /^review-gate eval: 2 of 5 cases \(1 with defects, 1 clean\), 2 runs of each per provider, in 12\.0 s$/,
  );
  assert.match(text, /PARTIAL: 2 runs did not run \(stopped by --budget\)/);
  assert.match(text, /^\s+claude \(claude-x\)\s+codex:gpt-5$/m);
  assert.match(text, /^line recall\s+1\/2 50\.0%\s+0\/1 0\.0%$/m);
  assert.match(
    text,
    /^ {2}over repeats\s+0\.0%–100\.0% \(sd 50\.0%\)\s+0\.0%–0\.0% \(sd 0\.0%\)$/m,
  );
  assert.match(text, /^clean changes blocked\s+0\/2 0\.0%\s+1\/1 100\.0%$/m);
  assert.match(text, /^hallucinated findings\s+0\/1 0\.0%\s+1\/1 100\.0%$/m);
  assert.match(text, /^could not run\s+0\/4 0\.0%\s+1\/2 50\.0%$/m);
  assert.match(text, /^cost\s+\$1\.00 \(\$0\.2500\/case\)\s+not reported$/m);
  assert.match(text, /^tokens per case\s+30\s+not reported$/m);
  assert.match(text, /^off-by-one \(1\)\s+caught 1\/2 50\.0%\s+caught 0\/1 0\.0%$/m);
  assert.match(text, /^refactor \(1\)\s+blocked 0\/2 0\.0%\s+blocked 1\/1 100\.0%$/m);
  assert.match(text, /Changed between repeats:\n {2}claude: ts\/off-by-one\n/);
  assert.match(
    text,
    /Not answered:\n {2}codex:gpt-5 ts\/off-by-one #1: timeout — the provider passed 600 s\n/,
  );
  assert.match(text, /Notes:\n {2}- stopped by --budget/);
});

Deno.test("the terminal format escapes control characters a case or a model wrote", async () => {
  const report = testReport();
  report.providers[1].runs[0].message = "boom\x1b[2J\u202ehidden";
  report.suite.path = "/s\x1b]0;title\x07";
  const text = await renderEval("terminal", report);
  for (const c of ["\x1b", "\u202e", "\x07"]) assert.ok(!text.includes(c), JSON.stringify(c));
  assert.match(text, /boom\\u\{1b\}\[2J\\u\{202e\}hidden/);
});

Deno.test("the markdown format: tables per provider, kind and case; model text stays text", async () => {
  const report = testReport();
  report.providers[0].label = "claude](https://evil.example)";
  const text = await renderEval("markdown", report);
  assert.match(text, /^# review-gate eval$/m);
  assert.match(text, /^\*\*PARTIAL:\*\* 2 runs did not run/m);
  assert.match(
    text,
    /^\| line recall \| 1\/2 50\.0%, over repeats 0\.0%–100\.0% \(sd 50\.0%\) \| 0\/1 0\.0%, over repeats 0\.0%–0\.0% \(sd 0\.0%\) \|$/m,
  );
  assert.match(
    text,
    /^\| `ts\/off-by-one` \| off-by-one \| caught, blocked, 1 finding \/ missed, not blocked, 0 findings \| timeout \|$/m,
  );
  assert.match(
    text,
    /^\| `ts\/refactor` \| refactor \(clean\) \| not blocked, 0 findings \/ not blocked, 0 findings \| blocked, 1 finding \(1 hallucinated\) \|$/m,
  );
});

Deno.test("the markdown format leaves no link, image, mention or HTML a case or a model wrote", async () => {
  const report = testReport();
  report.providers[0].label = "claude](https://evil.example) @team";
  for (const run of report.providers.flatMap((p) => p.runs)) {
    run.kind = HOSTILE_TITLE;
    run.case = `ts/x <b>![y](https://evil.example/y.png)</b>`;
  }
  report.providers[1].kinds[0].kind = HOSTILE_TITLE;
  report.notes.push(HOSTILE_TITLE);
  assertInert(await renderEval("markdown", report), {
    headings: ["review-gate eval", "By kind", "Cases", "Changed between repeats", "Notes"],
    tags: ["p", "ul", "li", "code", "strong", "em", "table", "thead", "tbody", "tr", "th", "td"],
  });
});

Deno.test("the html format is one self-contained page: no script, nothing loaded, every text escaped", async () => {
  const html = await renderEval("html", testReport());
  assert.match(html, /^<!doctype html>\n/);
  for (
    const active of [/<script/i, /\bsrc=/i, /\bhref=/i, /url\(/i, /@import/i, /<link/i, /<iframe/i]
  ) {
    assert.doesNotMatch(html.replaceAll("&lt;img src=x", ""), active, `${active}`);
  }
  assert.ok(!html.includes(HOSTILE_TITLE.slice(0, 10)), "the hostile title is not markup");
  assert.ok(html.includes("&lt;img src=x onerror=alert(1)&gt;"), "it is shown as text");
  assert.equal((html.match(/<svg /g) ?? []).length, 2, "rates and kinds as bars");
  // providers side by side: one bar per provider in every group, in their colours
  assert.equal(
    (html.match(/fill="#2f6fb3"/g) ?? []).length,
    7 + 2,
    "claude's bars: 7 rates, 2 kinds",
  );
  assert.equal((html.match(/fill="#d9822b"/g) ?? []).length, 7 + 2, "codex's bars");
  assert.match(html, /<p class="partial"><b>PARTIAL:<\/b> 2 runs did not run/);
  assert.match(html, /<th>claude \(claude-x\)<\/th><th>codex:gpt-5<\/th>/);
  assert.match(html, /refactor \(clean\)<\/text>/);
  assert.match(
    html,
    /<li class="hallucinated">\[high\] <code>src\/a\.ts:1-1<\/code> Off by one \(hallucinated\)<\/li>/,
  );
});
