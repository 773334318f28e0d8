/** What a call to Mailgun's HTTP API needs, whichever of its APIs (lists, messages) is called. */
export interface MailgunConnection {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
}

/**
 * POSTs a form to Mailgun's API at `path` (HTTP basic auth `api:{key}`, JSON answers). An unreachable
 * host or a timeout throws an Error with a short reason fit for an admin; any HTTP answer is returned.
 */
export async function postMailgunForm(
  settings: MailgunConnection,
  path: string,
  form: URLSearchParams,
): Promise<Response> {
  try {
    return await fetch(`${settings.baseUrl}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`api:${settings.apiKey}`).toString('base64')}`,
        accept: 'application/json',
      },
      body: form,
      signal: AbortSignal.timeout(settings.timeoutMs),
    });
  } catch (err) {
    throw new Error(
      (err as Error).name === 'TimeoutError'
        ? 'Mailgun did not answer in time'
        : 'Mailgun could not be reached',
    );
  }
}
