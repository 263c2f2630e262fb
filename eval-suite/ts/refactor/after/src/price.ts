export interface Line {
  unitCents: number;
  quantity: number;
}

const DISCOUNT_FROM_CENTS = 10_000;
const DISCOUNT_RATE = 0.1;

function subtotal(lines: Line[]): number {
  return lines.reduce((sum, line) => sum + line.unitCents * line.quantity, 0);
}

/** Total of the order in cents, with 10% off orders of 100 € or more. */
export function total(lines: Line[]): number {
  const sum = subtotal(lines);
  return sum >= DISCOUNT_FROM_CENTS ? Math.round(sum * (1 - DISCOUNT_RATE)) : sum;
}
