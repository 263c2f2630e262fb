/**
 * `npm pack`'s `prepack` step (package.json; README "Install"): fills `deno-cache/npm/` with the npm
 * packages review-gate imports, in Deno's own cache layout, so the installed command runs with
 * `DENO_DIR` there and `--cached-only` — nothing is fetched after install. The packages deno.lock
 * pins are copied from this machine's Deno cache (`deno install` put them there), so packing needs
 * no network; only when they do not suffice does Deno fetch them from the npm registry. Everything
 * else Deno cached while resolving (the transpiled modules, keyed by this checkout's paths) is
 * removed: the installed command builds its own.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { join, relative } from "node:path";

const root = fileURLToPath(new URL("..", import.meta.url));
const cache = join(root, "deno-cache");

/** Every module the package ships that Deno may load: main.ts and lib/ less the tests. */
async function entries(dir: string, found: string[] = []): Promise<string[]> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) await entries(path, found);
    else if (/\.ts$/.test(entry.name) && !/(^_test|_test\.ts$|^_)/.test(entry.name)) {
      found.push(relative(root, path));
    }
  }
  return found;
}

/** Copy the npm packages deno.lock pins (`name@version`) from this machine's Deno npm cache. */
async function copyPinned(): Promise<void> {
  const info = await new Deno.Command(Deno.execPath(), { args: ["info", "--json"] }).output();
  const from = join(
    JSON.parse(new TextDecoder().decode(info.stdout)).npmCache,
    "registry.npmjs.org",
  );
  const to = join(cache, "npm", "registry.npmjs.org");
  const lock = JSON.parse(await Deno.readTextFile(join(root, "deno.lock")));
  for (const key of Object.keys(lock.npm ?? {})) {
    const [, name, version] = /^(@?[^@]+)@([^_]+)/.exec(key) ?? [];
    if (!name) continue;
    for (const part of ["registry.json", version]) {
      await Deno.mkdir(join(to, name), { recursive: true });
      await new Deno.Command("cp", { args: ["-R", join(from, name, part), join(to, name, part)] })
        .output();
    }
  }
}

/**
 * `deno cache` every shipped module into `deno-cache/` under deno.lock, as the installed command
 * runs (npm/review-gate: `--frozen`, so every package the lock pins is needed), from the copies
 * alone when `offline`.
 */
async function cacheModules(offline: boolean): Promise<boolean> {
  const modules = ["main.ts", ...(await entries(join(root, "lib"))).sort()];
  const { success } = await new Deno.Command(Deno.execPath(), {
    args: [
      "cache",
      "--quiet",
      "--frozen",
      "--node-modules-dir=none",
      ...(offline ? ["--cached-only"] : []),
      ...modules,
    ],
    cwd: root,
    env: { DENO_DIR: cache },
    stderr: offline ? "null" : "inherit",
  }).output();
  return success;
}

async function main(): Promise<number> {
  await Deno.remove(cache, { recursive: true }).catch(() => {});
  await copyPinned();
  if (!await cacheModules(true) && !await cacheModules(false)) return 1;
  for await (const entry of Deno.readDir(cache)) {
    if (entry.name !== "npm") await Deno.remove(join(cache, entry.name), { recursive: true });
  }
  return 0;
}

Deno.exit(await main());
