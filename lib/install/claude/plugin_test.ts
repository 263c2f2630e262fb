import assert from "node:assert/strict";
import { join } from "node:path";
import { UsageError } from "../../base/errors.ts";
import { ensureNoEnabledPlugin, findEnabledPlugin } from "./plugin.ts";

interface World {
  home: string;
  project: string;
  env: Record<string, string>;
  /** Write `<home>/.claude/<rel>` (or under `cfg` when given) as JSON. */
  cfgFile(rel: string, value: unknown, cfg?: string): Promise<void>;
  projectSettings(file: "settings.json" | "settings.local.json", value: unknown): Promise<void>;
}

async function withWorld(fn: (w: World) => Promise<void>) {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "rg-plugin-" }));
  const home = join(dir, "home");
  const project = join(dir, "project");
  await Deno.mkdir(join(project, ".claude"), { recursive: true });
  const write = async (path: string, value: unknown) => {
    await Deno.mkdir(join(path, ".."), { recursive: true });
    await Deno.writeTextFile(path, typeof value === "string" ? value : JSON.stringify(value));
  };
  try {
    await fn({
      home,
      project,
      env: { HOME: home },
      cfgFile: (rel, value, cfg = join(home, ".claude")) => write(join(cfg, rel), value),
      projectSettings: (file, value) => write(join(project, ".claude", file), value),
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

function installs(entries: Record<string, unknown[]>) {
  return { version: 2, plugins: entries };
}

Deno.test("findEnabledPlugin() finds a user install enabled in user settings, under any marketplace name", async () => {
  await withWorld(async (w) => {
    assert.equal(await findEnabledPlugin({ projectDir: w.project, env: w.env }), null);
    await w.cfgFile(
      "plugins/installed_plugins.json",
      installs({
        "review-gate-extras@x": [{ scope: "user" }],
        "review-gate@my-fork": [{ scope: "user", installPath: "/somewhere" }],
      }),
    );
    assert.equal(await findEnabledPlugin({ projectDir: w.project, env: w.env }), null);
    await w.cfgFile("settings.json", {
      enabledPlugins: { "review-gate-extras@x": true, "review-gate@my-fork": true },
    });
    assert.deepEqual(await findEnabledPlugin({ projectDir: w.project, env: w.env }), {
      id: "review-gate@my-fork",
      installScope: "user",
      enabledIn: "user",
    });
  });
});

Deno.test("findEnabledPlugin() lets project and local settings override the user's enabledPlugins", async (t) => {
  await withWorld(async (w) => {
    await w.cfgFile(
      "plugins/installed_plugins.json",
      installs({ "review-gate@rg": [{ scope: "user" }] }),
    );
    await w.cfgFile("settings.json", { enabledPlugins: { "review-gate@rg": true } });
    await t.step("local false over user true: not enabled", async () => {
      await w.projectSettings("settings.local.json", {
        enabledPlugins: { "review-gate@rg": false },
      });
      assert.equal(await findEnabledPlugin({ projectDir: w.project, env: w.env }), null);
    });
    await t.step("project true over user false: enabled in project", async () => {
      await w.cfgFile("settings.json", { enabledPlugins: { "review-gate@rg": false } });
      await w.projectSettings("settings.local.json", {});
      await w.projectSettings("settings.json", { enabledPlugins: { "review-gate@rg": true } });
      const found = await findEnabledPlugin({ projectDir: w.project, env: w.env });
      assert.equal(found?.enabledIn, "project");
    });
  });
});

Deno.test("findEnabledPlugin() counts a project or local install only for its own project path", async () => {
  await withWorld(async (w) => {
    await w.projectSettings("settings.local.json", { enabledPlugins: { "review-gate@rg": true } });
    await w.cfgFile(
      "plugins/installed_plugins.json",
      installs({ "review-gate@rg": [{ scope: "local", projectPath: join(w.home, "elsewhere") }] }),
    );
    assert.equal(await findEnabledPlugin({ projectDir: w.project, env: w.env }), null);
    // the same project reached through a symlink is the same project
    const link = join(w.home, "link");
    await Deno.mkdir(w.home, { recursive: true });
    await Deno.symlink(w.project, link);
    await w.cfgFile(
      "plugins/installed_plugins.json",
      installs({ "review-gate@rg": [{ scope: "local", projectPath: link }] }),
    );
    assert.deepEqual(await findEnabledPlugin({ projectDir: w.project, env: w.env }), {
      id: "review-gate@rg",
      installScope: "local",
      enabledIn: "local",
    });
  });
});

Deno.test("findEnabledPlugin() reads CLAUDE_CONFIG_DIR instead of ~/.claude, and ignores malformed files", async () => {
  await withWorld(async (w) => {
    const cfg = join(w.home, "cfg");
    await w.cfgFile(
      "plugins/installed_plugins.json",
      installs({ "review-gate@rg": [{ scope: "user" }] }),
      cfg,
    );
    await w.cfgFile("settings.json", { enabledPlugins: { "review-gate@rg": true } }, cfg);
    assert.equal(await findEnabledPlugin({ projectDir: w.project, env: w.env }), null);
    const env = { ...w.env, CLAUDE_CONFIG_DIR: cfg };
    assert.equal((await findEnabledPlugin({ projectDir: w.project, env }))?.id, "review-gate@rg");
    await w.cfgFile("plugins/installed_plugins.json", "{not json", cfg);
    assert.equal(await findEnabledPlugin({ projectDir: w.project, env }), null);
    assert.equal(await findEnabledPlugin({ projectDir: w.project, env: {} }), null);
  });
});

Deno.test("findEnabledPlugin() reads settings with comments and trailing commas, as Claude Code does", async () => {
  await withWorld(async (w) => {
    await w.cfgFile(
      "plugins/installed_plugins.json",
      installs({ "review-gate@rg": [{ scope: "project", projectPath: w.project }] }),
    );
    await w.projectSettings(
      "settings.json",
      '// team settings\n{\n  "enabledPlugins": {\n    "review-gate@rg": true, // our gate\n  },\n}\n',
    );
    assert.deepEqual(await findEnabledPlugin({ projectDir: w.project, env: w.env }), {
      id: "review-gate@rg",
      installScope: "project",
      enabledIn: "project",
    });
    await assert.rejects(
      () => ensureNoEnabledPlugin({ projectDir: w.project, env: w.env }),
      UsageError,
    );
  });
});

Deno.test("ensureNoEnabledPlugin() refuses with exit 2, naming the plugin and how to disable it", async () => {
  await withWorld(async (w) => {
    await ensureNoEnabledPlugin({ projectDir: w.project, env: w.env }); // nothing installed
    await w.cfgFile(
      "plugins/installed_plugins.json",
      installs({ "review-gate@rg": [{ scope: "user" }] }),
    );
    await w.projectSettings("settings.json", { enabledPlugins: { "review-gate@rg": true } });
    await assert.rejects(
      () => ensureNoEnabledPlugin({ projectDir: w.project, env: w.env }),
      (error: Error) => {
        assert.ok(error instanceof UsageError);
        assert.equal(error.exitCode, 2);
        assert.match(error.message, /plugin is enabled for this project \("review-gate@rg"/);
        assert.match(error.message, /claude plugin disable review-gate@rg --scope project$/);
        return true;
      },
    );
  });
});
