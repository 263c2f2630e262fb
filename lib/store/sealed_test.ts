import assert from "node:assert/strict";
import { join } from "node:path";
import {
  gitTag,
  noteUnverified,
  openSealed,
  sealJson,
  sealJsonPieces,
  takeStateNotes,
} from "./sealed.ts";
import { withState } from "./_test_state.ts";

Deno.test("sealJson() output is JSON that openSealed() verifies for its purpose only", async () => {
  await withState(async (dir) => {
    const env = { XDG_STATE_HOME: dir };
    const value = { a: 1, b: ["x", "é"], nested: { s: "needs-attention" } };
    const text = await sealJson(value, "cache/abc", env);
    assert.deepEqual(JSON.parse(text).value, value, "still JSON, the value inside");
    assert.deepEqual(await openSealed(text, "cache/abc", env), { ok: true, value });
    const other = await openSealed(text, "cache/abd", env);
    assert.ok(!other.ok, "moved to another key or file");
    assert.match(other.why, /HMAC does not match/);
  });
});

Deno.test("sealJsonPieces() joined is sealJson()'s text, small or in many pieces", async () => {
  await withState(async (dir) => {
    const env = { XDG_STATE_HOME: dir };
    const small = { status: "approved", é: ["x"] };
    // a cached verdict of a large change: its coverage names every omitted hunk (~2 MB here)
    const large = {
      status: "needs-attention",
      hunks: Array.from({ length: 30_000 }, (_, k) => ({ oldStart: k, note: `é${k}` })),
    };
    for (const value of [small, large]) {
      const pieces = [...await sealJsonPieces(value, "cache/k", env)];
      if (value === large) assert.ok(pieces.length > 10, `${pieces.length} pieces`);
      const text = pieces.join("");
      assert.equal(text, await sealJson(value, "cache/k", env));
      assert.deepEqual(await openSealed(text, "cache/k", env), { ok: true, value });
    }
  });
});

Deno.test("openSealed(): an edited, cut, unsealed or foreign-key file does not verify", async (t) => {
  await withState(async (dir) => {
    const env = { XDG_STATE_HOME: join(dir, "one") };
    const text = await sealJson({ status: "needs-attention" }, "p", env);
    const cases: [string, string, RegExp][] = [
      ["one byte changed", text.replace("needs-attention", "needs-attentioN"), /HMAC/],
      ["the value rewritten", text.replace("needs-attention", "approved"), /HMAC/],
      ["cut short", text.slice(0, -5), /not sealed/],
      ["the MAC removed", JSON.stringify(JSON.parse(text).value), /not sealed/],
      ["whitespace added", text.replace('"value":', '"value": '), /HMAC/],
      [
        "the MAC's case changed",
        text.replace(/"hmac":"([0-9a-f]+)"/, (_, m) => `"hmac":"${m.toUpperCase()}"`),
        /not sealed/,
      ],
    ];
    for (const [name, edited, why] of cases) {
      await t.step(name, async () => {
        const got = await openSealed(edited, "p", env);
        assert.ok(!got.ok);
        assert.match(got.why, why);
      });
    }
    await t.step("sealed with another user's key", async () => {
      const foreign = await sealJson({ status: "approved" }, "p", {
        XDG_STATE_HOME: join(dir, "two"),
      });
      const got = await openSealed(foreign, "p", env);
      assert.ok(!got.ok);
      assert.match(got.why, /HMAC/);
    });
    await t.step("no key to check against (and none is made by a reader)", async () => {
      const none = { XDG_STATE_HOME: join(dir, "three") };
      const got = await openSealed(text, "p", none);
      assert.ok(!got.ok);
      assert.match(got.why, /does not exist/);
      assert.equal(await Deno.stat(join(dir, "three")).catch(() => null), null);
    });
  });
});

Deno.test("sealJson() refuses to seal without a key it can trust", async () => {
  await withState(async (dir) => {
    await Deno.mkdir(join(dir, "review-gate"));
    await Deno.writeTextFile(join(dir, "review-gate", "key"), "garbage\n", { mode: 0o600 });
    await assert.rejects(() => sealJson({}, "p", { XDG_STATE_HOME: dir }), /garbled/);
  });
});

Deno.test("takeStateNotes() gives each note once, then forgets them", () => {
  takeStateNotes();
  noteUnverified("a cached verdict", "its HMAC does not match", "reviewed again");
  noteUnverified("a cached verdict", "its HMAC does not match", "reviewed again");
  assert.deepEqual(takeStateNotes(), [
    "review-gate: a cached verdict did not verify (its HMAC does not match); reviewed again",
  ]);
  assert.deepEqual(takeStateNotes(), []);
});

Deno.test("gitTag() is what git hash-object prints for the key, a newline and the text", async () => {
  const secret = "0123456789abcdef".repeat(4);
  const text = "review-gate push replay 2\nk\nids\nrest é\n";
  for (const format of ["sha1", "sha256"] as const) {
    const dir = await Deno.makeTempDir();
    try {
      const init = await new Deno.Command("git", {
        args: ["init", "-q", `--object-format=${format}`, dir],
      }).output();
      assert.equal(init.code, 0);
      const child = new Deno.Command("git", {
        args: ["hash-object", "--no-filters", "--stdin"],
        cwd: dir,
        stdin: "piped",
        stdout: "piped",
      }).spawn();
      const writer = child.stdin.getWriter();
      await writer.write(new TextEncoder().encode(`${secret}\n${text}`));
      await writer.close();
      const out = new TextDecoder().decode((await child.output()).stdout).trim();
      assert.equal(await gitTag(secret, text, format), out);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }
});
