/**
 * Throwaway folders for tests of an agent's settings installer and status (lib/install/qwen/,
 * lib/install/gemini/, lib/install/agent_settings.ts).
 *
 * @module
 */
import { join } from "../base/path.ts";

/**
 * Run `fn` with a fresh repository folder `root` and an environment whose `HOME` and system
 * settings file (`systemVar`, e.g. `QWEN_CODE_SYSTEM_SETTINGS_PATH`) lie in one temp dir, which
 * is removed afterwards; none of them exists yet except `root`.
 */
export async function withSettingsDirs(
  systemVar: string,
  fn: (root: string, env: Record<string, string> & { HOME: string }) => Promise<void>,
): Promise<void> {
  const dir = await Deno.realPath(await Deno.makeTempDir());
  const root = join(dir, "repo");
  await Deno.mkdir(root);
  const env = { HOME: join(dir, "home"), [systemVar]: join(dir, "system.json") };
  try {
    await fn(root, env);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
