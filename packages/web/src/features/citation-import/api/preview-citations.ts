import { previewCitationFile, type CitationFormat } from '@bvdb/contract';
import { apiCall } from '../../../lib/api-client';

/** Reads a citation file on the server (no network there either): each entry, its problems and duplicates. */
export const previewCitationsCall = (
  text: string,
  format: CitationFormat | undefined,
  csrfToken: string | null,
) => apiCall(previewCitationFile, { body: format ? { text, format } : { text }, csrfToken });
