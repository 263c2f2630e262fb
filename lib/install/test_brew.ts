/**
 * A fake Homebrew prefix for tests of lib/install/visible_exec_path.ts.
 *
 * @module
 */
import { join } from "../base/path.ts";

/**
 * Make a fake Homebrew prefix under a temp dir: `Cellar/<name>/<version>/bin/<name>` for each version,
 * `bin/<name>` linked (relatively, as brew links) to `linked`, and `other/<name>`, a copy.
 */
export async function fakeBrew(name: string, versions: string[], linked: string) {
  const prefix = await Deno.realPath(await Deno.makeTempDir());
  const keg = (version: string) => join(prefix, "Cellar", name, version, "bin", name);
  for (const version of versions) {
    await Deno.mkdir(join(prefix, "Cellar", name, version, "bin"), { recursive: true });
    await Deno.writeTextFile(keg(version), "#!/bin/sh\n", { mode: 0o755 });
  }
  await Deno.mkdir(join(prefix, "bin"));
  await Deno.symlink(join("..", "Cellar", name, linked, "bin", name), join(prefix, "bin", name));
  await Deno.mkdir(join(prefix, "other"));
  await Deno.copyFile(keg(linked), join(prefix, "other", name));
  return { prefix, keg, cleanup: () => Deno.remove(prefix, { recursive: true }) };
}
