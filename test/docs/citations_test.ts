/**
 * Every doc a comment cites is in the repository, with the sections it names: someone who clones
 * the repository can follow each citation (test/docs/citations.ts says what a citation is).
 *
 * @module
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { citationsIn, problemOf, proseOf, sectionsOf } from "./citations.ts";
import { hashComments, scriptComments } from "./comments.ts";
import { markdownProse, repoComments, ROOT } from "./repo_files.ts";

/**
 * Reads a repository file's text, or undefined when there is none (or it is a directory) — or
 * when the path's case differs from the file's name anywhere below the root: a case-insensitive
 * filesystem (macOS) would open a miscased name, a clone on Linux would not.
 */
function readOrUndefined(path: string): string | undefined {
  const parts = relative(ROOT, path).split("/");
  let dir = ROOT;
  for (const part of parts) {
    try {
      if (![...Deno.readDirSync(dir)].some((entry) => entry.name === part)) return undefined;
    } catch {
      return undefined;
    }
    dir = join(dir, part);
  }
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return undefined;
  }
}

Deno.test("every doc a comment in the repository cites exists, with the sections it names", () => {
  const problems: string[] = [];
  let seen = 0;
  for (const { path, comments } of repoComments()) {
    for (const comment of comments) {
      for (const citation of citationsIn(path, comment.line, proseOf(comment.text))) {
        seen++;
        const problem = problemOf(ROOT, citation, readOrUndefined);
        if (problem) problems.push(problem);
      }
    }
  }
  assert.ok(seen > 50, `only ${seen} citations found: is the walk reading the sources?`);
  assert.deepEqual(problems, []);
});

Deno.test("a cited name must match the file's case, as on a case-sensitive filesystem", () => {
  assert.notEqual(readOrUndefined(join(ROOT, "README.md")), undefined);
  assert.equal(readOrUndefined(join(ROOT, "readme.md")), undefined);
  assert.equal(readOrUndefined(join(ROOT, "Docs", "design.md")), undefined);
});

Deno.test("script comments are found past strings, template literals and regex literals", () => {
  const source = [
    'const url = "http://example.com/a.md"; // first',
    "const t = `/* not ${'a'} comment */`;",
    "const r = /[\"'/]+/g; /** second",
    " * still second */",
    "const d = 4 / 2; // third",
  ].join("\n");
  assert.deepEqual(scriptComments(source), [
    { line: 1, text: "// first" },
    { line: 3, text: "/** second\n * still second */" },
    { line: 5, text: "// third" },
  ]);
});

Deno.test("hash comments start a line or follow a blank", () => {
  assert.deepEqual(hashComments('# one\necho "$#" x # two\nfoo#bar'), [
    { line: 1, text: "# one" },
    { line: 2, text: "# two" },
  ]);
});

Deno.test("Markdown prose leaves out code spans and fenced blocks, keeping lines", () => {
  const prose = markdownProse("see `LICENSE.md`\n```sh\ncat NOTES.md\n```\nand STYLE.md");
  assert.equal(prose.split("\n").length, 5);
  assert.doesNotMatch(prose, /LICENSE|NOTES/);
  assert.match(prose, /STYLE\.md/);
});

Deno.test("citations: names, sections across lines, arrows and lists; vocabulary is not cited", () => {
  const prose = proseOf(
    [
      "/**",
      ' * The gate (docs/design.md "Gates" → "Installer"; docs/providers.md "Codex", "Claude',
      ' * Code"), the user\'s REVIEW.md and review.md, README "Security model", a README file.',
      " */",
    ].join("\n"),
  );
  assert.deepEqual(citationsIn("lib/x.ts", 10, prose), [
    { from: "lib/x.ts", line: 11, name: "docs/design.md", sections: ["Gates", "Installer"] },
    { from: "lib/x.ts", line: 11, name: "docs/providers.md", sections: ["Codex", "Claude Code"] },
    { from: "lib/x.ts", line: 12, name: "README", sections: ["Security model"] },
  ]);
});

Deno.test("sections are headings and bold run-in titles outside code fences", () => {
  const sections = sectionsOf(
    "# Top\n## Store (contract)\n**Guard (optional).** text\n- **`hook` item:** x\n```\n# not\n```",
  );
  for (
    const name of ["Top", "Store (contract)", "Store", "Guard (optional)", "Guard", "hook item"]
  ) {
    assert.ok(sections.has(name), name);
  }
  assert.equal(sections.has("not"), false);
});

Deno.test("a citation of a missing file, a missing section or a path outside the repository fails", () => {
  const files: Record<string, string> = { "/r/docs/a.md": "# A\n## B\n", "/r/lib/n.md": "# N\n" };
  const read = (path: string) => files[path];
  const at = { from: "lib/x.ts", line: 3 };
  assert.equal(problemOf("/r", { ...at, name: "docs/a.md", sections: ["B"] }, read), undefined);
  assert.equal(problemOf("/r", { ...at, name: "n.md", sections: [] }, read), undefined);
  assert.equal(
    problemOf("/r", { ...at, name: "docs/a.md", sections: ["C"] }, read),
    'lib/x.ts:3 cites docs/a.md "C", which it has no heading for',
  );
  assert.equal(
    problemOf("/r", { ...at, name: "DESIGN.md", sections: [] }, read),
    "lib/x.ts:3 cites DESIGN.md, which the repository lacks",
  );
  assert.equal(
    problemOf("/r", { ...at, name: "../shared/DESIGN.md", sections: [] }, read),
    "lib/x.ts:3 cites ../shared/DESIGN.md, which the repository lacks",
  );
  assert.match(
    problemOf("/r", { ...at, name: "/opt/notes/DESIGN.md", sections: [] }, read) ?? "",
    /a path outside the repository/,
  );
});
