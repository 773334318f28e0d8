import { createCitationReferences, type ReferenceBody } from '@bvdb/contract';
import { apiCall } from '../../../lib/api-client';

/** Creates the chosen references in one transaction (all or none). */
export const createCitationReferencesCall = (references: ReferenceBody[], csrfToken: string | null) =>
  apiCall(createCitationReferences, { body: { references }, csrfToken });
