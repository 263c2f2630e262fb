import assert from "node:assert/strict";
import { join } from "node:path";
import { fakeBrew } from "./test_brew.ts";
import { visibleExecPath } from "./visible_exec_path.ts";

Deno.test("visibleExecPath() names the PATH link of a Homebrew keg's file, and only that", async () => {
  const brew = await fakeBrew("deno", ["2.1.4", "2.2.0"], "2.1.4");
  try {
    const bin = join(brew.prefix, "bin");
    const other = join(brew.prefix, "other");
    const at = (path: string) => visibleExecPath(brew.keg("2.1.4"), { path });
    assert.equal(at(`${other}:${bin}`), join(bin, "deno"), "a copy is not the same file");
    assert.equal(
      at(`:relative/bin:${bin}`),
      join(bin, "deno"),
      "empty and relative entries skipped",
    );
    assert.equal(at(other), brew.keg("2.1.4"), "no link on PATH: the keg's path stays");
    assert.equal(at(""), brew.keg("2.1.4"));
    assert.equal(at(join(brew.prefix, "Cellar", "deno", "2.1.4", "bin")), brew.keg("2.1.4"));
    // a link inside a keg goes away with it too: the first link outside every keg is named
    const inKeg = join(brew.prefix, "Cellar", "deno", "2.1.4", "libexec");
    await Deno.mkdir(inKeg);
    await Deno.symlink(brew.keg("2.1.4"), join(inKeg, "deno"));
    assert.equal(at(`${inKeg}:${bin}`), join(bin, "deno"));
    assert.equal(at(inKeg), brew.keg("2.1.4"));
    // the link points at another version: it is not the file that runs
    assert.equal(visibleExecPath(brew.keg("2.2.0"), { path: bin }), brew.keg("2.2.0"));
    // outside a keg the path is kept as it is, links or not
    assert.equal(visibleExecPath(join(other, "deno"), { path: bin }), join(other, "deno"));
    assert.equal(visibleExecPath(join(bin, "deno"), { path: other }), join(bin, "deno"));
  } finally {
    await brew.cleanup();
  }
});
