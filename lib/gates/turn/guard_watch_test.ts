import assert from "node:assert/strict";
import { join } from "node:path";
import { guardedFiles } from "./guard_files.ts";
import type { Repo } from "../../git/repo.ts";

const REPO = { root: "/r", gitDir: "/r/.git", commonDir: "/r/.git" } as Repo;

Deno.test("guardedFiles() covers the startup directories and login env files, bounded", async () => {
  const home = await Deno.makeTempDir();
  try {
    const dirs = [
      ".bashrc.d",
      ".profile.d",
      "Library/LaunchAgents",
      ".config/environment.d",
      ".config/fish/conf.d",
    ];
    for (const d of dirs) await Deno.mkdir(join(home, d), { recursive: true });
    await Deno.writeTextFile(join(home, ".bashrc.d", "x.sh"), "export A=1\n");
    await Deno.writeTextFile(join(home, ".config/environment.d", "rg.conf"), "A=1\n");
    await Deno.writeTextFile(join(home, ".config/fish/conf.d", "rg.fish"), "set -gx A 1\n");
    await Deno.writeTextFile(join(home, "Library/LaunchAgents", "env.plist"), "<plist/>\n");
    for (let i = 0; i < 40; i++) {
      await Deno.writeTextFile(join(home, ".profile.d", `f${i}.sh`), "\n");
    }
    const paths = guardedFiles(REPO, { HOME: home, ZDOTDIR: join(home, "z") }, null).map((f) =>
      f.path
    );
    for (const d of dirs) assert.ok(paths.includes(join(home, d)), d);
    for (
      const f of [
        ".bashrc.d/x.sh",
        ".config/environment.d/rg.conf",
        ".config/fish/conf.d/rg.fish",
        "Library/LaunchAgents/env.plist",
        ".pam_environment",
        "z/.zlogout",
        "z/.zshenv",
      ]
    ) assert.ok(paths.includes(join(home, f)), f);
    assert.ok(paths.filter((p) => p.startsWith(join(home, ".profile.d") + "/")).length <= 32);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("guardedFiles() guards the provider programs a review would start", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const bin = join(dir, "bin");
    await Deno.mkdir(bin);
    await Deno.writeTextFile(join(bin, "claude"), "#!/bin/sh\n");
    await Deno.writeTextFile(join(dir, "fake-codex"), "#!/bin/sh\n");
    const files = guardedFiles(
      REPO,
      { PATH: bin, REVIEW_GATE_CODEX_BIN: join(dir, "fake-codex") },
      null,
    );
    const real = await Deno.realPath(dir);
    const programs = files.filter((f) => f.what === "the reviewer CLI the review runs").map((f) =>
      f.path
    );
    assert.deepEqual(
      programs.sort(),
      [join(real, "bin", "claude"), join(real, "fake-codex")].sort(),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("guardedFiles() guards Copilot's hooks folders, config.json and the program our hooks file names", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir());
  try {
    const home = join(dir, "copilot");
    await Deno.mkdir(join(home, "hooks"), { recursive: true });
    const program = join(dir, "review-gate");
    await Deno.writeTextFile(program, "#!/bin/sh\n");
    await Deno.writeTextFile(
      join(home, "hooks", "review-gate.json"),
      JSON.stringify({
        version: 1,
        hooks: {
          Stop: [{
            hooks: [{ command: `'${program}' hook copilot-stop # managed-by: review-gate` }],
          }],
        },
      }),
    );
    const files = guardedFiles(REPO, { COPILOT_HOME: home }, null);
    const kind = (path: string) => files.find((f) => f.path === path)?.kind;
    assert.equal(kind(join(home, "hooks")), "hooks-folder");
    assert.equal(kind("/r/.github/hooks"), "hooks-folder");
    assert.equal(kind(join(home, "config.json")), "copilot-config");
    assert.equal(kind(join(home, "settings.json")), "copilot-settings");
    assert.equal(kind("/r/.github/copilot/settings.local.json"), "copilot-settings");
    assert.equal(
      files.find((f) => f.path === program)?.what,
      "the review-gate program the hooks run",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
