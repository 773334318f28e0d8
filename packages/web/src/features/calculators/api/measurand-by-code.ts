import { v1ListMeasurands } from '@bvdb/contract';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';

/**
 * Looks a laboratory's test code up (`/api/v1/measurands?code=`, decision 091): the measurand it
 * names with its headline CVI, what the RCV tool fills in from a LOINC or NPU code (issue 45.7).
 * Asked when the user presses the button, so a mutation-shaped call: nothing is kept or preloaded.
 */
export const useLookupCode = () =>
  useMutation({ mutationFn: (code: string) => apiCall(v1ListMeasurands, { query: { code, limit: 1 } }) });
