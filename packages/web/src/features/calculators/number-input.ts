/** Spec section 5: a non-numeric or empty entry counts as 0. */
export function toNumberOrZero(text: string): number {
  const n = Number(text.trim().replace(',', '.'));
  return text.trim() === '' || !Number.isFinite(n) ? 0 : n;
}
