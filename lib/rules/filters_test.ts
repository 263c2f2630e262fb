import assert from "node:assert/strict";
import { compileFilter, DEFAULT_EXCLUDES } from "./filters.ts";

const DEFAULTS = { exclude: [], include: [], defaultExcludes: true };

Deno.test("compileFilter() excludes every default lockfile, build output, minified file and snapshot", async () => {
  const filter = await compileFilter(DEFAULTS);
  const paths = [
    "package-lock.json",
    "npm-shrinkwrap.json",
    "web/yarn.lock",
    "pnpm-lock.yaml",
    "bun.lockb",
    "bun.lock",
    "crates/x/Cargo.lock",
    "go.sum",
    "poetry.lock",
    "uv.lock",
    "composer.lock",
    "Gemfile.lock",
    "deno.lock",
    "ios/Podfile.lock",
    "Package.resolved",
    "dist/index.js",
    "build/out.js",
    "static/app.min.js",
    "static/site.min.css",
    "src/__snapshots__/a.test.ts.snap",
    "test/b.snap",
    ".DS_Store",
    "src/deep/.DS_Store",
    "docs/._guide.md",
  ];
  for (const path of paths) {
    const rule = filter.byPath(path);
    assert.ok(typeof rule === "string" && rule.startsWith("default: "), `${path}: ${rule}`);
  }
  assert.equal(filter.byPath("package-lock.json"), "default: npm lockfile");
  assert.equal(filter.byPath("src/app.ts"), "attributes", "only .gitattributes can decide");
  // build output only at the root: hand-written code under a nested build/ or dist/ is reviewed
  assert.equal(filter.byPath("tools/build/deploy.js"), "attributes");
  assert.equal(filter.byPath("packages/a/dist/index.js"), "attributes");
  assert.equal(DEFAULT_EXCLUDES.length, 24);
});

Deno.test("compileFilter() applies exclude, then include, then the defaults", async (t) => {
  await t.step("exclude wins over everything", async () => {
    const f = await compileFilter({ ...DEFAULTS, exclude: ["src/gen/"], include: ["src/**"] });
    assert.equal(f.byPath("src/gen/a.ts"), 'exclude "src/gen/"');
    assert.equal(f.byPath("src/a.ts"), null);
  });
  await t.step("include leaves out what it does not match and beats the defaults", async () => {
    const f = await compileFilter({ ...DEFAULTS, include: ["src/**", "package-lock.json"] });
    assert.equal(f.byPath("docs/a.md"), "not matched by include");
    assert.equal(f.byPath("package-lock.json"), null);
    assert.equal(f.byPath("src/dist/a.js"), null);
  });
  await t.step("without the defaults only the config's globs apply", async () => {
    const f = await compileFilter({ ...DEFAULTS, defaultExcludes: false, exclude: ["*.gen.ts"] });
    assert.equal(f.byPath("package-lock.json"), null);
    assert.equal(f.byPath("a.gen.ts"), 'exclude "*.gen.ts"');
  });
  await t.step("attributes: linguist-generated and -diff", async () => {
    const f = await compileFilter(DEFAULTS);
    assert.equal(
      f.byAttributes({ generated: true, noDiff: false }),
      ".gitattributes linguist-generated",
    );
    assert.equal(f.byAttributes({ generated: false, noDiff: true }), ".gitattributes -diff");
    assert.equal(f.byAttributes({ generated: false, noDiff: false }), null);
  });
});

Deno.test("compileFilter() gives every default exclude a content check, and the config's globs none", async () => {
  const f = await compileFilter({ ...DEFAULTS, exclude: ["*.gen.ts"] });
  for (const group of DEFAULT_EXCLUDES) {
    assert.equal(f.checkOf(`default: ${group.name}`), group.check, group.name);
  }
  assert.equal(f.checkOf(f.byPath("web/app.min.js") as string), "minified");
  assert.equal(f.checkOf(f.byPath("a.gen.ts") as string), undefined, "the team's own glob");
  assert.equal(f.checkOf(".gitattributes linguist-generated"), undefined);
  const off = await compileFilter({ ...DEFAULTS, defaultExcludes: false });
  assert.equal(off.checkOf("default: npm lockfile"), undefined);
});
