export interface Remote {
  push(items: string[]): Promise<void>;
}

/** Pushes the queued items; they leave the queue only once the remote took them. */
export async function flush(queue: string[], remote: Remote): Promise<number> {
  const batch = queue.slice();
  await remote.push(batch);
  queue.splice(0, batch.length);
  return batch.length;
}
