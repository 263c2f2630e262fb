import assert from "node:assert/strict";
import plugin from "./layout_plugin.ts";

/** The ids of the rules the plugin reports for `source` as the file `filename`. */
function reported(filename: string, source: string): string[] {
  return Deno.lint.runPlugin(plugin, filename, source).map((d) => d.id);
}

Deno.test("no-default-locale-compare: an order by the machine's locale is reported", () => {
  const rule = "review-gate/no-default-locale-compare";
  for (
    const source of [
      "[].sort((a, b) => a.localeCompare(b));\n",
      "x.localeCompare(y);\n",
      "new Intl.Collator();\n",
    ]
  ) {
    assert.deepEqual(reported("/p/lib/a.ts", source), [rule], source);
    assert.deepEqual(reported("/p/bench/a.ts", source), [rule], source);
  }
  for (
    const source of [
      'x.localeCompare(y, "en");\n',
      'new Intl.Collator("en");\n',
      "x < y;\n",
    ]
  ) assert.deepEqual(reported("/p/lib/a.ts", source), [], source);
  assert.deepEqual(reported("/p/test/a_test.ts", "a.localeCompare(b);\n"), [], "tests may");
});

Deno.test("max-function-lines: a function over the limit is reported, test files exempt", () => {
  const long = `function f() {\n${"  x();\n".repeat(80)}}\n`;
  assert.deepEqual(reported("/p/lib/a.ts", long), ["review-gate/max-function-lines"]);
  assert.deepEqual(reported("/p/lib/a_test.ts", long), []);
  assert.deepEqual(reported("/p/lib/a.ts", "function f() {\n  x();\n}\n"), []);
});
