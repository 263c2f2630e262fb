/**
 * An env-gated timeline for measuring where a run's time goes (docs/design.md "Performance
 * notes": measure, don't guess). With `REVIEW_GATE_TRACE=1` in the environment each
 * {@linkcode trace} call writes one line to stderr: the milliseconds since the process started
 * (`performance.now()`, so Deno's own start-up is included) and the label. Unset, it does nothing;
 * it never changes what a run does.
 *
 * @module
 */

let enabled: boolean | undefined;

/** True when `REVIEW_GATE_TRACE` is set to a non-empty value (read once; false without env access). */
function on(): boolean {
  if (enabled === undefined) {
    try {
      enabled = (Deno.env.get("REVIEW_GATE_TRACE") ?? "") !== "";
    } catch {
      enabled = false;
    }
  }
  return enabled;
}

/**
 * Write `<ms since start> <label>` to stderr when tracing is on.
 *
 * @param label what was reached (free text, one line)
 */
export function trace(label: string): void {
  if (!on()) return;
  const line = `review-gate trace ${performance.now().toFixed(1).padStart(7)} ms ${label}\n`;
  try {
    Deno.stderr.writeSync(new TextEncoder().encode(line));
  } catch {
    // a trace never fails a run
  }
}
