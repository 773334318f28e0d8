import { createCitationReferences, type ReferenceBody } from '@bvdb/contract';
import { apiCall } from '../../../lib/api-client';
import { referenceChangeKeys, useInvalidate } from '../../../lib/query-keys';

/** Creates the chosen references in one transaction (all or none). */
export const createCitationReferencesCall = (references: ReferenceBody[], csrfToken: string | null) =>
  apiCall(createCitationReferences, { body: { references }, csrfToken });

/** After references are created: every read a reference change touches, read again. */
export const useInvalidateAfterCitationImport = () => useInvalidate(referenceChangeKeys);
