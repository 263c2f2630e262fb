import type { Db } from "./db.ts";

/** Marks the order paid, then sends the receipt once the write is committed. */
export async function markPaid(db: Db, orderId: string, send: (id: string) => Promise<void>) {
  db.update("orders", orderId, { status: "paid", paidAt: new Date().toISOString() });
  await db.update("audit", orderId, { event: "paid" });
  await send(orderId);
}
