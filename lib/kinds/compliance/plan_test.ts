import assert from "node:assert/strict";
import { MAX_ITEM_CHARS, parsePlan } from "./plan.ts";

const ids = (text: string) => parsePlan(text).map((i) => `${i.id} ${i.text}`);

Deno.test("parsePlan() reads a checklist: only checklist items count, other bullets fold into them", () => {
  const plan = [
    "# Plan",
    "",
    "Some context:",
    "- not an item (no checklist box)",
    "",
    "- [ ] Add the parser",
    "  - handle CRLF",
    "  - [x] handle tabs",
    "- [X] Wire the CLI",
    "  continued on the next line",
    "* [ ] Document it",
  ].join("\n");
  assert.deepEqual(ids(plan), [
    "1 Add the parser; handle CRLF",
    "1.1 handle tabs",
    "2 Wire the CLI continued on the next line",
    "3 Document it",
  ]);
  const items = parsePlan(plan);
  assert.equal(items[1].checked, true);
  assert.equal(items[2].checked, true);
  assert.equal(items[0].checked, undefined);
  assert.equal(items[0].section, "Plan");
});

Deno.test("parsePlan() reads numbered steps; nested numbers are sub-items, nested bullets fold", () => {
  const plan =
    "1. First\n   - detail a\n   - detail b\n2) Second\n   1. sub one\n   2. sub two\n3. Third\n";
  assert.deepEqual(ids(plan), [
    "1 First; detail a; detail b",
    "2 Second",
    "2.1 sub one",
    "2.2 sub two",
    "3 Third",
  ]);
});

Deno.test("parsePlan() gives phase ids when items sit under two or more headings", () => {
  const plan = [
    "Intro bullet first:",
    "- before any phase",
    "## Phase 1: Store",
    "1. Jobs file",
    "2. Lock",
    "## Phase 2: CLI",
    "- status",
    "- cancel",
    "## Notes",
    "Just prose.",
  ].join("\n");
  assert.deepEqual(ids(plan), [
    "0.1 before any phase",
    "1.1 Jobs file",
    "1.2 Lock",
    "2.1 status",
    "2.2 cancel",
  ]);
  assert.equal(parsePlan(plan)[3].section, "Phase 2: CLI");
});

Deno.test("parsePlan() uses a bullet over checklist items as their section", () => {
  const plan = "- Phase A\n  - [ ] a1\n  - [ ] a2\n- Phase B\n  - [ ] b1\n";
  const items = parsePlan(plan);
  assert.deepEqual(items.map((i) => `${i.id} ${i.section} ${i.text}`), [
    "1.1 Phase A a1",
    "1.2 Phase A a2",
    "2.1 Phase B b1",
  ]);
});

Deno.test("parsePlan() skips code fences, front matter and HTML comments; handles CRLF and tabs", () => {
  const plan = [
    "---",
    "title: x",
    "- [ ] not an item (front matter)",
    "---",
    "```md",
    "- [ ] not an item (code)",
    "```",
    "<!-- - [ ] not an item",
    "(comment) -->",
    "- [ ] real one",
    "\t- [ ] tabbed child",
  ].join("\r\n");
  assert.deepEqual(ids(plan), ["1 real one", "1.1 tabbed child"]);
});

Deno.test("parsePlan() finds nothing in prose, and cuts long item text", () => {
  assert.deepEqual(parsePlan("# Title\n\nJust a paragraph.\n"), []);
  assert.deepEqual(parsePlan(""), []);
  const [long] = parsePlan(`- ${"x".repeat(1000)}`);
  assert.equal(long.text.length, MAX_ITEM_CHARS);
  assert.ok(long.text.endsWith("…"));
});
