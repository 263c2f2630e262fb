export interface Remote {
  push(items: string[]): Promise<void>;
}

/** Pushes the queued items; they leave the queue only once the remote took them. */
export async function flush(
  queue: string[],
  remote: Remote,
  log: (message: string) => void = console.warn,
): Promise<number> {
  const batch = queue.slice();
  try {
    await remote.push(batch);
  } catch (error) {
    log(`push failed: ${error}`);
  }
  queue.splice(0, batch.length);
  return batch.length;
}
