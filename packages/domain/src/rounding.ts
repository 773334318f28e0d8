/**
 * Round half away from zero on the decimal value as written (1.005 → 1.01, 2.675 → 2.68,
 * −1.25 → −1.3). `toFixed` rounds the binary value instead (1.005 → "1.00"), so it is never used
 * for display. The number is first reduced to 15 significant digits, which is what it "is" in
 * decimal, then shifted by exponent arithmetic on its string form.
 */
export function roundHalfUp(value: number, decimals: number): number {
  if (!Number.isFinite(value)) return value;
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 15) {
    throw new RangeError('decimals must be an integer from 0 to 15');
  }
  const sign = value < 0 ? -1 : 1;
  const abs = Math.abs(Number(value.toPrecision(15)));
  const shifted = Number(`${abs}e${decimals}`);
  const rounded = Math.floor(shifted + 0.5);
  const result = Number(`${rounded}e-${decimals}`);
  return result === 0 ? 0 : sign * result;
}

/**
 * A number with exactly `decimals` decimals, rounded half up ("4.0", "17.53"). `toFixed` is safe
 * here: the value is already the nearest double to a number with that many decimals.
 */
export function formatFixed(value: number, decimals: number): string {
  const text = roundHalfUp(value, decimals).toFixed(decimals);
  return /^-0(\.0*)?$/.test(text) ? text.slice(1) : text;
}
