/**
 * End to end: the GitHub Copilot CLI Stop gate's guard of the files that switch Copilot's hooks
 * off — payloads shaped like the captured ones (fixtures/copilot_hooks/) piped into `main.ts hook
 * copilot-prompt` / `hook copilot-stop`, the fake provider as reviewer. A turn that changes nothing
 * costs no model call; a turn that writes `trustedFolders` in `$COPILOT_HOME/config.json`, adds a
 * hooks file to `.github/hooks/`, edits another in `$COPILOT_HOME/hooks/` or sets
 * `disableAllHooks` in `.github/copilot/settings.local.json` is blocked as a gate-control change;
 * the keys Copilot writes itself (`firstLaunchAt` in `config.json`, the `model` in `settings.json`) are
 * not. Facts:
 * lib/gates/copilot/door.ts, lib/install/copilot/status.ts.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  type GateSandbox,
  makeGateSandbox,
  providerCalls,
  runCli,
  scenario,
  stopDecision,
} from "./_gates.ts";

function payload(sb: GateSandbox, session: string, event: string, extra: object): string {
  return JSON.stringify({
    hook_event_name: event,
    session_id: session,
    timestamp: new Date().toISOString(),
    cwd: sb.repo.root,
    ...extra,
  });
}

async function prompt(sb: GateSandbox, session: string, text: string): Promise<void> {
  const p = await runCli(sb, ["hook", "copilot-prompt"], {
    stdin: payload(sb, session, "UserPromptSubmit", { prompt: text }),
  });
  assert.deepEqual([p.code, p.stdout], [0, ""], p.stderr);
}

async function stop(sb: GateSandbox, session: string): Promise<Record<string, unknown> | null> {
  const home = join(sb.env.HOME, ".copilot");
  const s = await runCli(sb, ["hook", "copilot-stop"], {
    stdin: payload(sb, session, "Stop", {
      transcript_path: join(home, "session-state", session, "events.jsonl"),
      stop_reason: "end_turn",
      stop_hook_active: false,
    }),
    env: scenario("valid"),
  });
  assert.equal(s.code, 0, s.stderr);
  return stopDecision(s.stdout);
}

/** One turn that runs `edit` and ends; the stop's answer. */
async function turn(
  sb: GateSandbox,
  session: string,
  edit: () => Promise<void>,
): Promise<Record<string, unknown> | null> {
  await prompt(sb, session, "Add a comment to src/app.ts");
  await edit();
  return await stop(sb, session);
}

async function write(path: string, text: string): Promise<void> {
  await Deno.mkdir(join(path, ".."), { recursive: true });
  await Deno.writeTextFile(path, text);
}

Deno.test("copilot Stop gate: a no-edit turn costs nothing; trust, hooks folders and disableAllHooks are gate control", async (t) => {
  const sb = await makeGateSandbox({ remote: false });
  const root = sb.repo.root;
  const home = join(sb.env.HOME, ".copilot");
  const config = join(home, "config.json");
  const theirs = join(home, "hooks", "theirs.json");
  try {
    await write(config, '{\n  "firstLaunchAt": "2026-12-01T00:00:00.000Z"\n}\n');
    await write(theirs, '{"version": 1, "hooks": {}}\n');
    await write(join(home, "settings.json"), "{}\n");

    await t.step("a turn that changes nothing makes no model call", async () => {
      assert.equal(await turn(sb, "c1", async () => {}), null);
      assert.equal(await providerCalls(sb), 0);
    });

    await t.step("the keys Copilot writes itself are not gate control", async () => {
      const decision = await turn(sb, "c2", async () => {
        await write(config, '{\n  "firstLaunchAt": "2026-12-01T00:00:00.000Z",\n  "x": 1\n}\n');
        await write(join(home, "settings.json"), '{"model": "gpt-5"}\n');
      });
      assert.equal(decision, null, JSON.stringify(decision));
    });

    const cases: [string, () => Promise<void>, RegExp][] = [
      ["trustedFolders in config.json", async () => {
        await write(config, JSON.stringify({ trustedFolders: [root] }));
      }, /This turn changed Copilot's trusted folders, which controls the review gate/],
      ["a hooks file added to .github/hooks/", async () => {
        await write(join(root, ".github", "hooks", "other.json"), '{"version": 1}\n');
      }, /This turn changed Copilot's hooks, which control the review gate/],
      ["another hooks file edited in $COPILOT_HOME/hooks/", async () => {
        await Deno.writeTextFile(theirs, '{"version": 1, "hooks": {"Stop": []}}\n');
      }, /This turn changed Copilot's user hooks, which control/],
      ["disableAllHooks in .github/copilot/settings.local.json", async () => {
        await write(
          join(root, ".github", "copilot", "settings.local.json"),
          '{"disableAllHooks": true}\n',
        );
      }, /This turn changed Copilot's settings, which control/],
    ];
    for (const [name, edit, finding] of cases) {
      await t.step(`${name} blocks`, async () => {
        const decision = await turn(sb, `c-${name.length}`, edit);
        assert.equal(decision?.decision, "block", JSON.stringify(decision));
        assert.match(String(decision?.reason), finding);
      });
    }
  } finally {
    await sb.cleanup();
  }
});
