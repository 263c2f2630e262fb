/**
 * Can Claude Code's Bash sandbox run on this machine? (for `doctor` and `install --guard`). Claude
 * Code 2.1.332 confines commands with Seatbelt (`/usr/bin/sandbox-exec`) on macOS and with
 * bubblewrap plus socat on Linux ("install missing tools (e.g. apt install bubblewrap socat)");
 * elsewhere it has none. When the sandbox cannot start it warns and runs the command unconfined
 * (unless `sandbox.failIfUnavailable`), so a missing tool turns the guard into tool rules only. On
 * Linux a trial `bwrap` run also catches a kernel that refuses unprivileged user namespaces.
 *
 * @module
 */
import { join } from "../../base/path.ts";
import type { Runner } from "../../exec/exec.ts";

/** The first `name` on `PATH` that is a file, or `null`. */
async function onPath(
  name: string,
  env: Record<string, string | undefined>,
): Promise<string | null> {
  for (const dir of (env.PATH ?? "").split(":")) {
    if (!dir) continue;
    try {
      if ((await Deno.stat(join(dir, name))).isFile) return join(dir, name);
    } catch {
      // not here
    }
  }
  return null;
}

/**
 * Why Claude Code's sandbox cannot run here.
 *
 * @param runner runs the trial `bwrap` on Linux (5 s bound)
 * @param env `PATH`
 * @param os `Deno.build.os` (a parameter for tests)
 * @returns one phrase, or `null` when the sandbox can run
 */
export async function claudeSandboxProblem(
  runner: Runner,
  env: Record<string, string | undefined>,
  os: string = Deno.build.os,
): Promise<string | null> {
  if (os === "darwin") {
    try {
      await Deno.stat("/usr/bin/sandbox-exec");
      return null;
    } catch {
      return "its sandbox needs /usr/bin/sandbox-exec, which is missing";
    }
  }
  if (os !== "linux") return `Claude Code has no Bash sandbox on ${os}`;
  const bwrap = await onPath("bwrap", env);
  const socat = await onPath("socat", env);
  const missing = [bwrap ? null : "bwrap (bubblewrap)", socat ? null : "socat"].filter(Boolean);
  if (missing.length > 0) {
    return `its sandbox needs ${
      missing.join(" and ")
    }, not found on PATH, so Claude Code runs Bash unconfined`;
  }
  try {
    const trial = await runner({
      cmd: bwrap!,
      args: ["--ro-bind", "/", "/", "--dev", "/dev", "true"],
      stdin: null,
      timeoutMs: 5_000,
    });
    if (trial.code === 0) return null;
    const why = new TextDecoder().decode(trial.stderr).trim().split("\n")[0];
    return `bwrap cannot run here (${
      why || `exit ${trial.code}`
    }), so Claude Code runs Bash unconfined`;
  } catch (error) {
    return `bwrap cannot run here (${(error as Error).message})`;
  }
}
