/**
 * The setting of a review's provider calls, prepared ahead: the read-only proof's first snapshot
 * (lib/session/proof.ts) and the private copy of the reviewed tree the provider runs in
 * (lib/session/workspace.ts). Both need only the repository and the reviewed tree's id, so a review
 * that knows it will ask a model starts them once the path filter has kept a file of the listing,
 * while the patch is still read and the prompt planned — their `git status`, `ls-tree` and
 * `cat-file` then run beside that work instead of after it — and any other review starts them
 * once its verdict cache missed. The proof is still
 * complete before the provider starts (its first `take` waits for the snapshot) and taken again
 * after it ends; one setting serves every call of the review (parts, a council), inside one proof.
 *
 * A setting the review does not use (nothing could be shown to the model, an interrupt, an error)
 * is cancelled: its git children are killed, and the copy is removed before the review returns
 * (a second Ctrl-C removes it too: lib/exec/tmpdir.ts).
 *
 * Every git call of the setting is bounded: {@linkcode SETTING_GIT_TIMEOUT_MS} on its own, and
 * {@linkcode INTERRUPT_GRACE_MS} after the review's interrupt. The proof must finish after an
 * interrupt (its second take says whether the provider wrote), but a git call that never ends — a
 * FIFO put where git opens a file (`.git/shallow`), a lock held forever — must not keep the run,
 * and the terminal, waiting: the proof then fails to be taken, and the call says so.
 *
 * @module
 */
import type { ExecRequest, ExecResult, Runner } from "../exec/exec.ts";
import type { Repo } from "../git/repo.ts";
import type { ProofScope, ReviewSnapshot } from "../session/proof.ts";
import type { ReadOnlyProof } from "../session/types.ts";
import type { ReviewWorkspace } from "../session/workspace.ts";
import { ownOutputsOf } from "../store/output_writes.ts";
import { stateKeyPath } from "../store/user_state.ts";

/** Longest one git call of the setting (the proof's `status`, the copy's `ls-tree`/`cat-file`) may run, ms. */
export const SETTING_GIT_TIMEOUT_MS = 120_000;

/** How long the setting's git calls may still run after the review's interrupt, ms. */
export const INTERRUPT_GRACE_MS = 3_000;

/** One review's workspace and read-only proof, being prepared. */
export interface CallSetting {
  /** The reviewed tree's object id the copy holds. */
  readonly tree: string;
  /**
   * Run the review's provider calls in the workspace, inside the proof (whose first `take` is the
   * snapshot under way); the workspace is removed after, on every path — begun once the calls have
   * ended, not awaited here: {@linkcode CallSetting.end} resolves once it is gone. Called at most
   * once.
   *
   * @returns what `fn` returns
   * @throws {import("../base/errors.ts").GitError} when the tree could not be copied
   * @throws {import("../base/errors.ts").StoreError} when the private directory could not be made
   */
  use<T>(
    fn: (workspace: ReviewWorkspace, proof: ReadOnlyProof<ReviewSnapshot>) => Promise<T>,
  ): Promise<T>;
  /**
   * Give the setting up unless it is in use: kill its git children, remove the copy, and resolve
   * once nothing of it is left. After `use`, it waits for the copy `use` left to be removed and
   * the setting's git children to have ended. Never throws.
   */
  end(): Promise<void>;
}

/** A promise's outcome as a value: handled at once, so a failure nobody awaits yet is no crash. */
type Settled<T> = { value: T } | { error: unknown };

function settle<T>(promise: Promise<T>): Promise<Settled<T>> {
  return promise.then((value) => ({ value }), (error: unknown) => ({ error }));
}

/**
 * Start preparing the setting of a review of `tree` in `repo`: the proof's first snapshot (one
 * `git status`, the git dir's files, the watched files outside the repository) and the workspace's
 * copy (`ls-tree`, `cat-file`) start now, concurrently.
 *
 * @param runner the subprocess seam (git)
 * @param at the repository, the reviewed tree's id (`Change.toTree`), the parent environment (it
 *   says where HOME and the CLIs' config dirs are, for the proof), and the review's interrupt
 *   signal ({@linkcode INTERRUPT_GRACE_MS} after it aborts, the setting's git calls are killed),
 *   and what of the repository the proof watches (lib/session/proof.ts `ProofScope`, default
 *   `"repository"`)
 */
export function prepareCallSetting(
  runner: Runner,
  at: {
    repo: Repo;
    tree: string;
    env: Record<string, string | undefined>;
    signal?: AbortSignal;
    scope?: ProofScope;
  },
): CallSetting {
  const children = trackedRunner(runner, afterGrace(at.signal));
  const { repo } = at;
  // the copy first: its two git calls in a row are the longer way to a ready setting
  const held = holdWorkspace(children.runner, { repo, tree: at.tree });
  const proof = settle(
    import("../session/proof.ts").then(({ startReviewProof }) =>
      startReviewProof(children.runner, {
        repo,
        env: at.env,
        scope: at.scope,
        stateKey: stateKeyPath(at.env),
        // another review-gate run's `--output` files are not the provider's writes
        ownOutputs: ownOutputsOf(repo, at.env),
      })
    ),
  );
  let using: Promise<unknown> | undefined;
  const cleanUp = async (proofInUse: boolean) => {
    if (!proofInUse) children.stop();
    held.release();
    await held.done;
    await children.drain();
  };
  return {
    tree: at.tree,
    use(fn) {
      if (using) return Promise.reject(new Error("a call setting is used once"));
      let proofInUse = false;
      const run = async () => {
        const [started, workspace] = await Promise.all([proof, held.workspace]);
        if ("error" in workspace) throw workspace.error;
        if ("error" in started) throw started.error;
        proofInUse = true;
        children.keep();
        return await fn(workspace.value, started.value(workspace.value));
      };
      const result = run();
      // the copy is removed once the calls have ended, beside what the review does next (judging,
      // storing, printing): `end` resolves once it is gone, and the review awaits `end` before it
      // returns
      using = result.then(() => cleanUp(proofInUse), () => cleanUp(proofInUse));
      return result;
    },
    async end() {
      using ??= cleanUp(false);
      await using;
    },
  };
}

/**
 * A signal that aborts {@linkcode INTERRUPT_GRACE_MS} after `signal` does (its timer never holds
 * the process open), or undefined without one.
 */
function afterGrace(signal: AbortSignal | undefined): AbortSignal | undefined {
  if (!signal) return undefined;
  const late = new AbortController();
  const start = () =>
    Deno.unrefTimer(setTimeout(() => late.abort(signal.reason), INTERRUPT_GRACE_MS));
  if (signal.aborted) start();
  else signal.addEventListener("abort", start, { once: true });
  return late.signal;
}

/**
 * A runner whose children can all be killed (`stop`) and waited for (`drain`). Once the proof is
 * in use (`keep`), `stop` no longer kills new calls: the proof must finish, and a git call an
 * interrupt stopped is run again at once (lib/git/git.ts). Every call is still bounded by
 * {@linkcode SETTING_GIT_TIMEOUT_MS} and by `late` (the interrupt, after its grace).
 */
function trackedRunner(runner: Runner, late: AbortSignal | undefined) {
  const stop = new AbortController();
  const running = new Set<Promise<ExecResult>>();
  let kept = false;
  const stopOrLate = late ? AbortSignal.any([stop.signal, late]) : stop.signal;
  return {
    runner: (request: ExecRequest) => {
      const child = runner({
        ...request,
        timeoutMs: request.timeoutMs ?? SETTING_GIT_TIMEOUT_MS,
        signal: request.signal ?? (kept ? late : stopOrLate),
      });
      running.add(child);
      const forget = () => void running.delete(child);
      child.then(forget, forget);
      return child;
    },
    stop: () => stop.abort(),
    keep: () => void (kept = true),
    drain: async () => {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
}

/**
 * The workspace made now and held until `release`: `workspace` settles once the copy is written
 * (or failed), `done` once the directory is removed (never rejects).
 */
function holdWorkspace(runner: Runner, at: { repo: Repo; tree: string }) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let entered!: (workspace: ReviewWorkspace) => void;
  const ready = new Promise<ReviewWorkspace>((resolve) => (entered = resolve));
  const made = import("../session/workspace.ts").then(({ withReviewWorkspace }) =>
    withReviewWorkspace(runner, at, (workspace) => {
      entered(workspace);
      return released;
    })
  );
  const failed = made.then(() => {
    throw new Error("the review workspace was released before it was used");
  });
  return {
    workspace: settle(Promise.race([ready, failed])),
    release,
    done: made.then(() => {}, () => {}),
  };
}
