import assert from "node:assert/strict";
import { join } from "node:path";
import { loadStateKey } from "./state_key.ts";
import { withState } from "./_test_state.ts";

Deno.test("loadStateKey() makes a private key on first need and reads the same one back", async () => {
  await withState(async (dir) => {
    const env = { XDG_STATE_HOME: dir };
    const absent = await loadStateKey(env);
    assert.deepEqual(absent, {
      ok: false,
      path: join(dir, "review-gate", "key"),
      problem: "it does not exist",
    });
    const made = await loadStateKey(env, { create: true });
    assert.ok(made.ok);
    assert.match(made.secret, /^[0-9a-f]{64}$/);
    assert.equal(await Deno.readTextFile(made.path), `${made.secret}\n`);
    assert.equal((await Deno.stat(made.path)).mode! & 0o777, 0o600);
    assert.equal((await Deno.stat(join(dir, "review-gate"))).mode! & 0o777, 0o700);
    assert.deepEqual(await loadStateKey(env), made);
    assert.deepEqual(await loadStateKey(env, { create: true }), made);
    const left = [...Deno.readDirSync(join(dir, "review-gate"))].map((e) => e.name);
    assert.deepEqual(left, ["key"], "no temp file is left behind");
  });
});

Deno.test("loadStateKey(): hooks that start at once agree on one key", async () => {
  await withState(async (dir) => {
    const env = { XDG_STATE_HOME: dir };
    const all = await Promise.all(
      Array.from({ length: 16 }, () => loadStateKey(env, { create: true })),
    );
    const secrets = new Set(all.map((k) => k.ok ? k.secret : k.problem));
    assert.equal(secrets.size, 1);
    assert.ok(all[0].ok);
  });
});

Deno.test("loadStateKey() never trusts a garbled, shared or odd key file", async (t) => {
  await withState(async (dir) => {
    const env = { XDG_STATE_HOME: dir };
    const path = join(dir, "review-gate", "key");
    await Deno.mkdir(join(dir, "review-gate"), { recursive: true });
    const cases: [string, () => Promise<void>, RegExp][] = [
      ["garbled", () => Deno.writeTextFile(path, "not a key\n", { mode: 0o600 }), /garbled/],
      ["cut short", () => Deno.writeTextFile(path, "ab".repeat(20), { mode: 0o600 }), /garbled/],
      [
        "upper-case hex",
        () => Deno.writeTextFile(path, "AB".repeat(32), { mode: 0o600 }),
        /garbled/,
      ],
      ["empty", () => Deno.writeTextFile(path, "", { mode: 0o600 }), /garbled/],
      ["readable by others", async () => {
        await Deno.writeTextFile(path, `${"ab".repeat(32)}\n`);
        await Deno.chmod(path, 0o644);
      }, /other users/],
      ["a directory", () => Deno.mkdir(path), /not a regular file/],
      ["a symlink", () => Deno.symlink("/dev/zero", path), /not a regular file/],
    ];
    for (const [name, make, problem] of cases) {
      await t.step(name, async () => {
        await Deno.remove(path, { recursive: true }).catch(() => {});
        await make();
        for (const create of [false, true]) {
          const got = await loadStateKey(env, { create });
          assert.ok(!got.ok);
          assert.match(got.problem, problem);
        }
      });
    }
  });
});

Deno.test("loadStateKey() without a state folder says so", async () => {
  const got = await loadStateKey({}, { create: true });
  assert.ok(!got.ok);
  assert.match(got.problem, /no state folder/);
});
