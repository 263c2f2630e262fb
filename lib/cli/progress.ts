/**
 * Progress on stderr while the provider works: `reviewing with claude… 12 s`, redrawn every second,
 * only when stderr is a terminal (silent and parseable otherwise).
 *
 * @module
 */
import type { TextSink } from "./deps.ts";

/** A progress line that can be started (when the provider starts) and stopped (always). */
export interface Progress {
  start: (provider: string) => void;
  stop: () => void;
}

/**
 * Make a progress indicator for a stream.
 *
 * @param sink stderr; nothing is written unless it is a terminal
 * @param now clock
 */
export function startProgress(sink: TextSink, now: () => Date): Progress {
  let timer: ReturnType<typeof setInterval> | undefined;
  let shown = false;
  return {
    start(provider) {
      if (!sink.isTerminal) return;
      const began = now().getTime();
      const draw = () => {
        const seconds = Math.round((now().getTime() - began) / 1000);
        sink.write(`\r\x1b[2Kreviewing with ${provider}… ${seconds} s`);
        shown = true;
      };
      draw();
      timer = setInterval(draw, 1000);
    },
    stop() {
      if (timer !== undefined) clearInterval(timer);
      if (shown) sink.write("\r\x1b[2K");
    },
  };
}
