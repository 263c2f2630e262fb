import assert from "node:assert/strict";
import { assertShellcheckClean } from "../../git/_testing.ts";
import { STOP_STAMP_HEADER, stopStampText } from "./stop_stamp.ts";
import type { Repo } from "../../git/repo.ts";

const REPO: Repo = {
  root: "/r",
  gitDir: "/r/.git",
  commonDir: "/r/.git",
  head: null,
  objectFormat: "sha1",
};

Deno.test("the Stop hook script is POSIX sh that passes shellcheck", async () => {
  const script = await Deno.readTextFile(new URL("../../../hooks/turn-stop.sh", import.meta.url));
  assert.ok(script.startsWith("#!/bin/sh\n"));
  await assertShellcheckClean(script);
});

Deno.test("stopStampText() writes one item a line, and nothing for a path it cannot carry", () => {
  const at = {
    repo: REPO,
    sessionFile: "/r/.git/review-gate/sessions/s.json",
    indexId: "a".repeat(40),
    tree: "b".repeat(40),
    ignoredId: "d".repeat(40),
    refsId: "e".repeat(40),
    guard: [{ path: "/h/.gitconfig", id: "c".repeat(40) }, { path: "/h/x y", id: null }],
  };
  assert.equal(
    stopStampText(at),
    [
      STOP_STAMP_HEADER,
      "/r",
      "/r/.git",
      at.sessionFile,
      at.indexId,
      at.tree,
      at.ignoredId,
      at.refsId,
      `${"c".repeat(40)} /h/.gitconfig`,
      "- /h/x y",
      "",
    ].join("\n"),
  );
  assert.equal(stopStampText({ ...at, guard: [{ path: "/h/a\nb", id: null }] }), null);
  assert.equal(stopStampText({ ...at, guard: [{ path: "/h/a ", id: null }] }), null);
});
