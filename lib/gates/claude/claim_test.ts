import assert from "node:assert/strict";
import { join } from "node:path";
import { claimStop, lastAssistantUuid, twiceMessage } from "./claim.ts";
import { parseHookPayload } from "./payload.ts";

async function withDir(fn: (dir: string) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "rg-claim-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

function transcriptLines(...uuids: string[]): string {
  return uuids.map((uuid, i) =>
    JSON.stringify({ type: i % 2 ? "user" : "assistant", uuid, message: { content: "x" } })
  ).join("\n") + "\n";
}

function stop(dir: string, promptId = "p1") {
  const parsed = parseHookPayload(JSON.stringify({
    session_id: "s-1",
    cwd: dir,
    hook_event_name: "Stop",
    prompt_id: promptId,
    transcript_path: join(dir, "t.jsonl"),
    stop_hook_active: false,
  }));
  assert.ok(parsed.ok);
  return parsed.payload as Parameters<typeof claimStop>[1];
}

Deno.test("lastAssistantUuid() finds the last assistant entry of a transcript, or null", async () => {
  await withDir(async (dir) => {
    const path = join(dir, "t.jsonl");
    assert.equal(await lastAssistantUuid(path), null);
    assert.equal(await lastAssistantUuid(undefined), null);
    await Deno.writeTextFile(path, transcriptLines("a1", "u1", "a2", "u2") + '{"type":"assist');
    assert.equal(await lastAssistantUuid(path), "a2");
    await Deno.writeTextFile(path, "x".repeat(300 * 1024) + "\n" + transcriptLines("a9"));
    assert.equal(await lastAssistantUuid(path), "a9");
  });
});

Deno.test("claimStop(): one of the hooks running for the same stop wins; the next stop is claimed anew", async () => {
  await withDir(async (dir) => {
    await Deno.writeTextFile(join(dir, "t.jsonl"), transcriptLines("a1"));
    const now = new Date();
    const claims = await Promise.all([
      claimStop(dir, stop(dir), { source: "plugin", now }),
      claimStop(dir, stop(dir), { source: "settings", now }),
      claimStop(dir, stop(dir), { source: "settings", now }),
    ]);
    assert.equal(claims.filter((c) => c.won).length, 1);
    const lost = claims.filter((c) => !c.won) as Extract<typeof claims[number], { won: false }>[];
    assert.equal(lost.filter((c) => c.firstLoss).length, 1, "the session hears it once");
    const winnerSource = claims[0].won ? "plugin" : "settings";
    for (const c of lost) assert.equal(c.winner, winnerSource);
    // after a block, Claude answers again: a new assistant entry, a new stop to claim
    await Deno.writeTextFile(join(dir, "t.jsonl"), transcriptLines("a1", "u1", "a2"));
    assert.deepEqual(await claimStop(dir, stop(dir), { source: "plugin", now }), { won: true });
    const again = await claimStop(dir, stop(dir), { source: "settings", now });
    assert.deepEqual(again, { won: false, winner: "plugin", firstLoss: false });
  });
});

Deno.test("claimStop() without a readable transcript claims nothing and lets every hook run", async () => {
  await withDir(async (dir) => {
    const now = new Date();
    assert.deepEqual(await claimStop(dir, stop(dir), { source: "plugin", now }), {
      won: true,
      keyless: true,
    });
    assert.deepEqual(await claimStop(dir, stop(dir), { source: "settings", now }), {
      won: true,
      keyless: true,
    });
  });
});

Deno.test("twiceMessage() names both installs once per session", () => {
  assert.match(
    twiceMessage({ won: false, winner: "settings", firstLoss: true }, "plugin")!,
    /installed twice: as the Claude Code plugin and in settings; each stop is still reviewed once/,
  );
  assert.match(
    twiceMessage({ won: false, winner: "settings", firstLoss: true }, "settings")!,
    /installed in more than one place \(settings\)/,
  );
  assert.equal(twiceMessage({ won: false, winner: "plugin", firstLoss: false }, "settings"), null);
});
