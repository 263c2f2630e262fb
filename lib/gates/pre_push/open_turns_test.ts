import assert from "node:assert/strict";
import { join } from "node:path";
import type { Repo } from "../../git/repo.ts";
import { type SessionState, writeSessionState } from "../../store/sessions.ts";
import { stateDir } from "../../store/state.ts";
import { OPEN_TURN_HOURS, openTurns } from "./open_turns.ts";

/** A throwaway common dir and user state dir (the key that seals the records is the test's own). */
async function withRepo(fn: (repo: Repo, env: Record<string, string>) => Promise<void>) {
  const dir = await Deno.makeTempDir();
  const before = Deno.env.get("XDG_STATE_HOME");
  const env = { XDG_STATE_HOME: join(dir, "user-state") };
  Deno.env.set("XDG_STATE_HOME", env.XDG_STATE_HOME);
  try {
    const repo = { root: join(dir, "wt"), commonDir: join(dir, "git") } as Repo;
    await fn(repo, env);
  } finally {
    if (before === undefined) Deno.env.delete("XDG_STATE_HOME");
    else Deno.env.set("XDG_STATE_HOME", before);
    await Deno.remove(dir, { recursive: true });
  }
}

const NOW = new Date();
const START = { path: "/u/config.json", text: "{}" };

async function write(repo: Repo, sessionId: string, value: SessionState): Promise<void> {
  await writeSessionState(stateDir(repo.commonDir), { sessionId, value });
}

Deno.test("openTurns(): a started turn no Stop answered for is open; answered, forgotten or stale ones are not", async () => {
  await withRepo(async (repo, env) => {
    const recent = NOW.toISOString();
    const stale = new Date(NOW.getTime() - (OPEN_TURN_HOURS + 1) * 3600_000).toISOString();
    await write(repo, "open", {
      consecutiveBlocks: 0,
      userConfigAtStart: START,
      updatedAt: recent,
    });
    await write(repo, "answered", {
      consecutiveBlocks: 0,
      userConfigAtStart: START,
      answered: { baselineTree: "t" },
      updatedAt: recent,
    });
    await write(repo, "forgotten", { consecutiveBlocks: 0 });
    await write(repo, "stale", { consecutiveBlocks: 0, baselineTree: "t", updatedAt: stale });
    const turns = await openTurns(repo, env, NOW);
    assert.deepEqual(turns.map((t) => [t.kind, t.name]), [["open", "open.json"]]);
  });
});

Deno.test("openTurns(): a record that does not verify is a turn whose start is unknown", async () => {
  await withRepo(async (repo, env) => {
    await write(repo, "real", { consecutiveBlocks: 0 });
    const sessions = join(stateDir(repo.commonDir), "sessions");
    await Deno.writeTextFile(join(sessions, "forged.json"), '{"consecutiveBlocks":0}\n');
    const turns = await openTurns(repo, env, NOW);
    assert.equal(turns.length, 1);
    assert.equal(turns[0].kind, "unknown");
    assert.match(turns[0].kind === "unknown" ? turns[0].what : "", /sessions\/forged\.json/);
  });
});

Deno.test("openTurns(): no sessions folder and no anchors is no open turn", async () => {
  await withRepo(async (repo, env) => {
    assert.deepEqual(await openTurns(repo, env, NOW), []);
  });
});
