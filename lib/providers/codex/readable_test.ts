import assert from "node:assert/strict";
import { join } from "node:path";
import { codexProgramRoots, programRootsOutside, readOnlyFilesystem } from "./readable.ts";

async function touch(path: string): Promise<void> {
  await Deno.mkdir(join(path, ".."), { recursive: true });
  await Deno.writeTextFile(path, "");
}

Deno.test("codexProgramRoots() finds the native program of an npm launcher beside it or nested, and a native program's folder", async () => {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "rg-codex-roots-" }));
  try {
    const scope = join(base, "flat", "node_modules", "@openai");
    await touch(join(scope, "codex", "bin", "codex.js"));
    await touch(
      join(scope, "codex-linux-x64", "vendor", "x86_64-unknown-linux-musl", "bin", "codex"),
    );
    await touch(join(scope, "other", "vendor", "t", "bin", "codex"));
    assert.deepEqual(await codexProgramRoots(join(scope, "codex", "bin", "codex.js")), [
      join(scope, "codex-linux-x64", "vendor", "x86_64-unknown-linux-musl"),
    ]);
    const pkg = join(base, "nested", "node_modules", "@openai", "codex");
    await touch(join(pkg, "bin", "codex.js"));
    await touch(
      join(pkg, "node_modules", "@openai", "codex-darwin-arm64", "vendor", "a", "bin", "codex"),
    );
    assert.deepEqual(await codexProgramRoots(join(pkg, "bin", "codex.js")), [
      join(pkg, "node_modules", "@openai", "codex-darwin-arm64", "vendor", "a"),
    ]);
    assert.deepEqual(await codexProgramRoots(join(base, "opt", "codex")), [join(base, "opt")]);
    assert.deepEqual(await codexProgramRoots(join(base, "none", "bin", "codex.js")), []);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("readOnlyFilesystem() names only :minimal and the given folders, all read", () => {
  assert.equal(
    readOnlyFilesystem(["/w/copy", '/q"x', "/w/copy"]),
    '{":minimal"="read","/w/copy"="read","/q\\"x"="read"}',
  );
});

Deno.test("programRootsOutside() drops a program folder that is or holds HOME, the repository or a kept folder", () => {
  const kept = ["/home/u", "/home/u/src/repo", "/tmp/rg-1", undefined];
  assert.deepEqual(programRootsOutside(["/home/u"], kept), [], "codex straight in HOME");
  assert.deepEqual(programRootsOutside(["/home/u/src"], kept), [], "a folder above the repository");
  assert.deepEqual(programRootsOutside(["/"], kept), []);
  assert.deepEqual(
    programRootsOutside([
      "/home/u/.nvm/versions/node/v20/lib/node_modules/x/vendor/t",
      "/opt/codex",
    ], kept),
    ["/home/u/.nvm/versions/node/v20/lib/node_modules/x/vendor/t", "/opt/codex"],
    "a folder inside HOME that holds none of them stays",
  );
  assert.deepEqual(
    programRootsOutside(["/home/user2"], kept),
    ["/home/user2"],
    "no prefix match on a name",
  );
});
