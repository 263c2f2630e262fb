import assert from "node:assert/strict";
import { join } from "node:path";
import { MAX_PROGRAM_BYTES, programFiles, shellStartupFiles } from "./guard_places.ts";
import { guardedTreePath } from "./guard.ts";

Deno.test("shellStartupFiles() lists bash, zsh (ZDOTDIR and HOME) and fish files, each once", () => {
  const files = shellStartupFiles({ HOME: "/h", ZDOTDIR: "/z", XDG_CONFIG_HOME: "/x" });
  for (
    const path of [
      "/h/.bashrc",
      "/h/.bash_profile",
      "/h/.bash_login",
      "/h/.profile",
      "/h/.bash_aliases",
      "/z/.zshenv",
      "/z/.zshrc",
      "/z/.zprofile",
      "/z/.zlogin",
      "/h/.zshenv",
      "/h/.zshrc",
      "/x/fish/config.fish",
    ]
  ) assert.ok(files.includes(path), path);
  assert.equal(new Set(files).size, files.length);
  const plain = shellStartupFiles({ HOME: "/h" });
  assert.ok(plain.includes("/h/.config/fish/config.fish"));
  assert.equal(plain.filter((p) => p === "/h/.zshrc").length, 1);
  assert.deepEqual(shellStartupFiles({}), []);
});

Deno.test("programFiles() takes the absolute quoted paths of review-gate's hook commands only", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const main = join(dir, "rg it", "main.ts");
    const script = join(dir, "rg it", "hooks", "turn-stop.sh");
    const big = join(dir, "review-gate");
    const other = join(dir, "other.sh");
    await Deno.mkdir(join(dir, "rg it", "hooks"), { recursive: true });
    for (const p of [main, script, other]) await Deno.writeTextFile(p, "x\n");
    await Deno.writeFile(big, new Uint8Array(MAX_PROGRAM_BYTES + 1));
    const settings = join(dir, "settings.json");
    await Deno.writeTextFile(
      settings,
      JSON.stringify({
        hooks: {
          Stop: [{
            hooks: [
              {
                command:
                  `sh '${script}' '/usr/bin/deno' run '${main}' hook claude-stop # managed-by: review-gate`,
              },
              { command: `sh '${other}'` }, // not ours
            ],
          }],
          UserPromptSubmit: [{
            hooks: [{ command: `'${big}' hook claude-prompt # managed-by: review-gate` }],
          }],
        },
      }),
    );
    const stub = join(dir, "pre-push");
    await Deno.writeTextFile(
      stub,
      `#!/bin/sh\n# managed-by: review-gate\n'/usr/bin/deno' run '${main}' hook pre-push "$@" 2>/dev/null\n`,
    );
    const found = programFiles([settings, stub, join(dir, "missing.json")], {
      CLAUDE_PLUGIN_ROOT: "/p",
    });
    assert.deepEqual(
      found.sort(),
      [
        main,
        script,
        "/p/bin/review-gate",
        "/p/hooks/hooks.json",
        "/p/main.ts",
      ].sort(),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("guardedTreePath() takes .gitattributes at any depth as gate-control", () => {
  for (const path of [".gitattributes", "src/.gitattributes", "a/b/c/.gitattributes"]) {
    assert.equal(guardedTreePath(path, null)?.what, "git attributes (.gitattributes)", path);
  }
  assert.equal(guardedTreePath("src/gitattributes.ts", null), null);
  assert.equal(guardedTreePath("docs/.gitattributes.md", null), null);
});

Deno.test("guardedTreePath() compares names as a case-insensitive file system does (macOS)", () => {
  const cases: [string, RegExp][] = [
    ["src/Review.md", /review guidelines/],
    ["docs/review.MD", /review guidelines/],
    ["src/.GITATTRIBUTES", /git attributes/],
    [".Review-Gate/acks.json", /review-gate's repository files/],
    [".HUSKY/pre-push", /husky/],
    ["Hooks/Pre-Push", /the git hooks/],
  ];
  for (const [path, what] of cases) {
    assert.match(guardedTreePath(path, "hooks")?.what ?? "none", what, path);
  }
  assert.equal(guardedTreePath("src/review.ts", "hooks"), null);
});
