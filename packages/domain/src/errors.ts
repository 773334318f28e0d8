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

/**
 * Too few pairs for an indirect estimate (issue 46.5): says how many there were and how many are
 * needed, nothing about the rows themselves.
 */
export class TooFewPairsError extends DomainInputError {
  constructor(
    readonly pairs: number,
    readonly minimum: number,
  ) {
    super(
      `only ${pairs} pair${pairs === 1 ? '' : 's'} of consecutive results; at least ${minimum} are needed for an estimate`,
    );
  }
}
