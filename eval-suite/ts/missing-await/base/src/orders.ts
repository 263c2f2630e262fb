import type { Db } from "./db.ts";

/** Marks the order paid, then sends the receipt once the write is committed. */
export async function markPaid(db: Db, orderId: string, send: (id: string) => Promise<void>) {
  await db.update("orders", orderId, { status: "paid" });
  await send(orderId);
}
