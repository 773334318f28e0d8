import type { LightMyRequestResponse } from 'fastify';

/**
 * The message an error answer carries for a person: the JSON API's `message`, or on the FHIR routes
 * the `OperationOutcome`'s first `diagnostics` (decision 087). Null when there is none.
 */
export function errorMessageOf(res: LightMyRequestResponse): string | null {
  const body = res.json<{ message?: unknown; resourceType?: unknown; issue?: { diagnostics?: unknown }[] }>();
  const message = body.resourceType === 'OperationOutcome' ? body.issue?.[0]?.diagnostics : body.message;
  return typeof message === 'string' && message !== '' ? message : null;
}
