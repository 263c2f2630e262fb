/**
 * lib/base/path.ts gives `node:path`'s POSIX results for every path of an awkward corpus: empty
 * parts, repeated and trailing slashes, `.` and `..` at every depth, leading `//`, dot files,
 * names with dots, spaces and backslashes (plain characters on POSIX).
 */
import assert from "node:assert/strict";
import * as node from "node:path";
import * as ours from "./path.ts";

const SEGMENTS = ["", ".", "..", "a", "b.c", ".hidden", "..x", "x..", "...", "d e", "f\\g", "/"];

/** Every path of up to three segments joined by one or two slashes, absolute and relative. */
function corpus(): string[] {
  const out = new Set<string>(["", "/", "//", "///", "./", "../", "a//", "//a", "/a/b/", "a/b//"]);
  for (const a of SEGMENTS) {
    for (const b of SEGMENTS) {
      for (const c of ["", "..", "z", "z/"]) {
        for (const glue of ["/", "//"]) {
          const rel = [a, b, c].join(glue);
          out.add(rel);
          out.add(`/${rel}`);
        }
      }
    }
  }
  return [...out];
}

const PATHS = corpus();

Deno.test("path: normalize, dirname, basename, isAbsolute are node:path's", () => {
  for (const p of PATHS) {
    assert.equal(ours.normalize(p), node.posix.normalize(p), `normalize(${JSON.stringify(p)})`);
    assert.equal(ours.dirname(p), node.posix.dirname(p), `dirname(${JSON.stringify(p)})`);
    assert.equal(ours.basename(p), node.posix.basename(p), `basename(${JSON.stringify(p)})`);
    assert.equal(ours.isAbsolute(p), node.posix.isAbsolute(p), `isAbsolute(${JSON.stringify(p)})`);
  }
});

Deno.test("path: join, resolve and relative of pairs are node:path's", () => {
  const sample = PATHS.filter((_, i) => i % 7 === 0);
  for (const a of sample) {
    for (const b of sample) {
      const args = JSON.stringify([a, b]);
      assert.equal(ours.join(a, b), node.posix.join(a, b), `join${args}`);
      assert.equal(ours.resolve(a, b), node.posix.resolve(a, b), `resolve${args}`);
      assert.equal(ours.relative(a, b), node.posix.relative(a, b), `relative${args}`);
    }
  }
  assert.equal(ours.join(), node.posix.join());
  assert.equal(ours.resolve(), node.posix.resolve());
  assert.equal(ours.join("a", "", "b", ""), node.posix.join("a", "", "b", ""));
  assert.equal(ours.resolve("/x", "y", "/z", "w"), node.posix.resolve("/x", "y", "/z", "w"));
  assert.equal(ours.delimiter, node.posix.delimiter);
  assert.equal(ours.sep, node.posix.sep);
});
