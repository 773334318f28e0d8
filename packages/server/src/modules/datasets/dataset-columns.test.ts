import { describe, expectTypeOf, it } from 'vitest';
import type { PropertyOf, SpecRow, StoredName, StoredValues } from './dataset-columns.js';

/** What a column holds for a field's value: the API's 0/1 flags are booleans. */
type ColumnValue<V> = V extends 0 | 1 ? boolean : V;

describe('dataset columns', () => {
  it('store every editable field in the column named after it, with the field’s type', () => {
    // Compile-time: the casts of dataset-columns.ts are sound only while this holds.
    expectTypeOf<{ [N in StoredName]: SpecRow[PropertyOf<N>] }>().toEqualTypeOf<{
      [N in StoredName]: ColumnValue<StoredValues[N]>;
    }>();
  });
});
