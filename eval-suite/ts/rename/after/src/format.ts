/** An amount in cents as euros, e.g. 1234 → "12.34 €". */
export function formatEuros(amountCents: number): string {
  return `${(amountCents / 100).toFixed(2)} €`;
}
