export interface Line {
  unitCents: number;
  quantity: number;
}

/** Total of the order in cents, with 10% off orders of 100 € or more. */
export function total(lines: Line[]): number {
  let sum = 0;
  for (const line of lines) sum += line.unitCents * line.quantity;
  if (sum >= 10_000) sum = Math.round(sum * 0.9);
  return sum;
}
