import { createReference, updateReference, type ReferenceBody } from '@bvdb/contract';
import { apiCall } from '../../../lib/api-client';
import { referenceChangeKeys, useInvalidate } from '../../../lib/query-keys';

export const createReferenceCall = (body: ReferenceBody, csrfToken: string | null) =>
  apiCall(createReference, { body, csrfToken });

export const updateReferenceCall = (
  id: number,
  body: ReferenceBody & { version: number },
  csrfToken: string | null,
) => apiCall(updateReference, { params: { id }, body, csrfToken });

/** After a reference is created or edited (and its article kept): every read it changes, read again. */
export const useInvalidateAfterReferenceSave = () => useInvalidate(referenceChangeKeys);
