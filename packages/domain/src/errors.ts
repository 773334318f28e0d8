/** An input a formula cannot take; the message is written for the person who typed it. */
export class DomainInputError extends Error {
  override readonly name = 'DomainInputError';
}

export function requireFinite(value: number, label: string): number {
  if (!Number.isFinite(value)) throw new DomainInputError(`${label} must be a number`);
  return value;
}

export function requireNonNegative(value: number, label: string): number {
  requireFinite(value, label);
  if (value < 0) throw new DomainInputError(`${label} must not be negative`);
  return value;
}
