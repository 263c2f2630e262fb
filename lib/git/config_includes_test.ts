import assert from "node:assert/strict";
import { join } from "node:path";
import { includedFiles, includePaths } from "./config_includes.ts";

Deno.test("includePaths() reads the path of every [include] and [includeIf] section, and nothing else", () => {
  const text = [
    "[core]",
    "\tpath = not-an-include",
    "[include]",
    "\tpath = ~/.gitconfig.local ; a comment",
    '[includeIf "gitdir:~/work/"]',
    '\tPATH = "work config.cfg"',
    "[Include] path = one-line.cfg",
    "[user]",
    "\tpath = neither",
  ].join("\n");
  assert.deepEqual(includePaths(text), ["~/.gitconfig.local", "work config.cfg", "one-line.cfg"]);
});

Deno.test("includedFiles() follows includes, absent files too, relative to the including file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const home = join(dir, "home");
    await Deno.mkdir(join(home, "cfg"), { recursive: true });
    await Deno.writeTextFile(
      join(home, ".gitconfig"),
      "[include]\n\tpath = cfg/a.cfg\n\tpath = ~/absent.cfg\n",
    );
    await Deno.writeTextFile(join(home, "cfg", "a.cfg"), "[include]\n\tpath = b.cfg\n");
    assert.deepEqual(await includedFiles(join(home, ".gitconfig"), home), [
      join(home, "cfg", "a.cfg"),
      join(home, "absent.cfg"),
      join(home, "cfg", "b.cfg"),
    ]);
    assert.deepEqual(await includedFiles(join(home, "missing"), home), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
