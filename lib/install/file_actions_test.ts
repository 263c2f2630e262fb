import assert from "node:assert/strict";
import { join } from "node:path";
import { applyActions, renderActions } from "./file_actions.ts";

async function withDir(fn: (dir: string) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "rg-actions-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("applyActions() rmdir removes an empty directory and leaves a non-empty one", async () => {
  await withDir(async (dir) => {
    await Deno.mkdir(join(dir, "empty"));
    await Deno.mkdir(join(dir, "full"));
    await Deno.writeTextFile(join(dir, "full/f"), "");
    await applyActions([
      { op: "rmdir", path: join(dir, "empty"), why: "t" },
      { op: "rmdir", path: join(dir, "full"), why: "t" },
    ]);
    assert.equal(await Deno.lstat(join(dir, "empty")).then(() => true, () => false), false);
    assert.equal((await Deno.lstat(join(dir, "full"))).isDirectory, true);
  });
});

Deno.test("renderActions() shows a diff by default and, with diff false, one line per file and how to see it", () => {
  const actions = [
    { op: "mkdir" as const, path: "/r/.claude" },
    {
      op: "write" as const,
      path: "/r/my hooks/pre-push",
      text: "#!/bin/sh\nexec x\n",
      mode: 0o755,
      before: null,
      why: "review-gate's stub",
    },
  ];
  const diff = renderActions(actions);
  assert.match(diff, /^ {4}\+ #!\/bin\/sh$/m);
  assert.equal(
    renderActions(actions, { diff: false }),
    "create directory /r/.claude\n" +
      "create /r/my hooks/pre-push (mode 755): review-gate's stub\n" +
      "    see it: cat '/r/my hooks/pre-push'\n",
  );
});

Deno.test('renderActions() with diff "counts" gives one line per file with the lines it adds and removes', () => {
  const actions = [
    { op: "mkdir" as const, path: "/r/.claude" },
    {
      op: "write" as const,
      path: "/r/s.json",
      text: '{\n  "a": 1,\n  "b": 2\n}\n',
      mode: 0o644,
      before: '{\n  "a": 1\n}\n',
      why: "add ours",
    },
    { op: "remove" as const, path: "/r/hook", before: "#!/bin/sh\nexit 0\n", why: "ours" },
  ];
  assert.equal(
    renderActions(actions, { diff: "counts" }),
    "create directory /r/.claude\n" +
      "update /r/s.json (mode 644): add ours; +2/-1 lines\n" +
      "remove /r/hook: ours; +0/-2 lines\n",
  );
});
