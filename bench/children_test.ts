import assert from "node:assert/strict";
import { describeChildren, parseExecs } from "./children.ts";

Deno.test("parseExecs() counts successful execs after the first, git per subcommand", () => {
  const text = [
    `100 execve("/usr/bin/deno", ["deno", "run", "main.ts"], 0x7ffd /* 9 vars */) = 0`,
    `101 execve("/usr/local/bin/git", ["git"], 0x1 /* 9 vars */) = -1 ENOENT (No such file)`,
    `101 execve("/usr/bin/git", ["git", "--no-pager", "-c", "a=b", "-C", "/r", "write-tree"], 0x1) = 0`,
    `102 execve("/usr/bin/git", ["git", "rev-parse", "HEAD"], 0x1 /* 9 vars */) = 0`,
    `103 execve("/bin/sh", ["sh", "-c", "x"], 0x1 /* 9 vars */) = 0`,
  ].join("\n");
  const count = parseExecs(text);
  assert.deepEqual(count, {
    total: 3,
    git: 2,
    byName: { "git write-tree": 1, "git rev-parse": 1, sh: 1 },
  });
  assert.equal(
    describeChildren(count),
    "3 child processes, 2 git calls (git rev-parse ×1, git write-tree ×1, sh ×1)",
  );
  assert.equal(parseExecs(""), null);
});

Deno.test("parseExecs() joins an execve strace split around another process's line", () => {
  const text = [
    `100 execve("/bin/sh", ["sh", "hook"], 0x7ffd /* 9 vars */) = 0`,
    `101 execve("/usr/bin/git", ["git", "hash-object", "--stdin"], 0x1 /* 9 vars */ <unfinished ...>`,
    `102 execve("/usr/bin/awk", ["awk", "BEGIN {}"], 0x1 /* 9 vars */) = 0`,
    `101 <... execve resumed>) = 0`,
    `103 execve("/usr/bin/cat", ["cat"], 0x1 /* 9 vars */ <unfinished ...>`,
    `103 <... execve resumed>) = -1 ENOENT (No such file or directory)`,
    `104 execve("/usr/bin/git", ["git", "ls-tree", "-r"], 0x1 /* 50 vars */ <unfinished ...>`,
    `99 --- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid=102} ---`,
    `104 <... execve resumed>)             = 0`,
  ].join("\n");
  assert.deepEqual(parseExecs(text), {
    total: 3,
    git: 2,
    byName: { "git hash-object": 1, awk: 1, "git ls-tree": 1 },
  });
});
