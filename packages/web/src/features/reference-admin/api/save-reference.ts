import { createReference, updateReference, type ReferenceBody } from '@bvdb/contract';
import { apiCall } from '../../../lib/api-client';

export const createReferenceCall = (body: ReferenceBody, csrfToken: string | null) =>
  apiCall(createReference, { body, csrfToken });

export const updateReferenceCall = (
  id: number,
  body: ReferenceBody & { version: number },
  csrfToken: string | null,
) => apiCall(updateReference, { params: { id }, body, csrfToken });
