/**
 * The npm package (README "Install"): `npm pack` of this checkout, installed with
 * `npm install -g` into a temporary prefix (`--prefix`, as `npm_config_prefix` would), gives a
 * `review-gate` command that prints its version, runs the demo and installs a pre-push hook naming
 * that command by its absolute path — all with no network (the run itself is in an empty network
 * namespace where `unshare` can make one). npm takes the `deno` package from its own cache
 * (`--offline`); only when that cache lacks it is the registry asked, and only when the registry
 * cannot be reached either is the test skipped, saying why.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { makeTestRepo } from "../../lib/git/test_repo.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

interface Ran {
  code: number;
  out: string;
}

async function run(cmd: string, args: string[], cwd: string, env: Record<string, string>) {
  const out = await new Deno.Command(cmd, { args, cwd, env, stdin: "null" }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  return { code: out.code, out: text } satisfies Ran;
}

/** `npm install -g` from the cache alone, then (cache miss) from the registry. */
async function npmInstall(tarball: string, prefix: string, env: Record<string, string>) {
  const args = ["install", "-g", "--no-audit", "--no-fund", "--prefix", prefix, tarball];
  const offline = await run("npm", [...args, "--offline"], ROOT, env);
  if (offline.code === 0) return { ok: true, why: "" };
  const online = await run("npm", args, ROOT, env);
  if (online.code === 0) return { ok: true, why: "" };
  const unreachable = /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ENETUNREACH|ETIMEDOUT|ENOTCACHED/;
  assert.match(online.out, unreachable, `npm install failed:\n${online.out}`);
  return { ok: false, why: online.out.split("\n").find((l) => unreachable.test(l)) ?? "" };
}

/** argv that runs `argv` with no network when `unshare -n` works here, else as it is. */
async function offline(argv: string[]): Promise<string[]> {
  const probe = await new Deno.Command("unshare", { args: ["-n", "true"] }).output().catch(
    () => undefined,
  );
  return probe?.success ? ["unshare", "-n", ...argv] : argv;
}

Deno.test("npm pack + npm install -g gives a review-gate command that runs offline and names itself in hooks", async () => {
  const tmp = await Deno.realPath(await Deno.makeTempDir({ prefix: "review-gate-npm-" }));
  const repo = await makeTestRepo({ "a.txt": "one\n" });
  try {
    const env = { ...Deno.env.toObject(), HOME: join(tmp, "home"), TMPDIR: tmp };
    await Deno.mkdir(env.HOME);
    // packing copies the packages from this machine's Deno cache (scripts/npm_deno_cache.ts)
    const pack = await run("npm", ["pack", "--pack-destination", tmp], ROOT, Deno.env.toObject());
    assert.equal(pack.code, 0, pack.out);
    const installed = await npmInstall(join(tmp, "review-gate-0.1.0.tgz"), join(tmp, "p"), env);
    if (!installed.ok) {
      // a skip says why, on stderr, where the test run shows it
      Deno.stderr.writeSync(new TextEncoder().encode(
        `skipped: npm's cache has no deno@2.9.6 and the registry is unreachable (${installed.why})\n`,
      ));
      return;
    }
    const command = join(tmp, "p", "bin", "review-gate");
    // the docs the installed README and the code's comments cite ship with it
    const pkg = join(tmp, "p", "lib", "node_modules", "review-gate");
    for (const doc of ["README.md", "docs/design.md", "docs/providers.md"]) {
      assert.ok((await Deno.stat(join(pkg, doc))).isFile, `${doc} is in the package`);
    }
    const user = { HOME: env.HOME, TMPDIR: tmp, PATH: `${join(tmp, "p", "bin")}:/usr/bin:/bin` };
    const [program, ...rest] = await offline([command]);
    const version = await run(program, [...rest, "--version"], tmp, user);
    assert.equal(version.out.trim(), "0.1.0", version.out);
    // the launcher starts no helper process (it runs on every push and stop): with nothing on PATH
    // it still finds its deno and prints the version, and nothing else
    const bare = await new Deno.Command(command, {
      args: ["--version"],
      cwd: tmp,
      env: { HOME: env.HOME, TMPDIR: tmp, PATH: join(tmp, "no-such-dir") },
      clearEnv: true,
      stdin: "null",
    }).output();
    const decoded = [bare.stdout, bare.stderr].map((b) => new TextDecoder().decode(b));
    assert.deepEqual([bare.code, ...decoded], [0, "0.1.0\n", ""]);
    const demo = await run(program, [...rest, "demo"], tmp, user);
    assert.equal(demo.code, 0, demo.out);
    assert.match(demo.out, /found a blocking \(high\) finding, as it should/);
    const install = await run(program, [...rest, "install", "--git"], repo.root, user);
    assert.equal(install.code, 0, install.out);
    // the hook names the launcher inside the package, resolved: never a link someone could repoint
    const hook = await Deno.readTextFile(join(repo.root, ".git", "hooks", "pre-push"));
    const launcher = await Deno.realPath(command);
    assert.ok(launcher.endsWith("/lib/node_modules/review-gate/npm/review-gate"), launcher);
    assert.ok(hook.includes(`'${launcher}' hook pre-push`), hook);
  } finally {
    await repo.cleanup();
    await Deno.remove(tmp, { recursive: true });
  }
});
