import { autocomplete, type Suggestion } from '@bvdb/contract';
import { apiCall } from '../../../lib/api-client';

export function fetchSuggestions(query: string, signal: AbortSignal): Promise<Suggestion[]> {
  return apiCall(autocomplete, { query: { query }, signal });
}
