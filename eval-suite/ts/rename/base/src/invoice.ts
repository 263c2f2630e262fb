import { fmt } from "./format.ts";

/** One invoice line: "2 × Widget  12.34 €". */
export function invoiceLine(name: string, quantity: number, unitCents: number): string {
  return `${quantity} × ${name}  ${fmt(quantity * unitCents)}`;
}
