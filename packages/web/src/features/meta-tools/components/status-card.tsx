import { useEffect, useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Card from 'react-bootstrap/Card';

export const STATUS_TIMEOUT_MS = 8000;

/** `https://` is prefixed when the URL names no scheme (spec section 7). */
export function withScheme(url: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `https://${url}`;
}

/** A body of "OK" (as text, a JSON string, or R's ["OK"]) means healthy. */
export function isHealthyBody(text: string): boolean {
  const t = text.trim();
  if (t === 'OK') return true;
  try {
    const v: unknown = JSON.parse(t);
    return v === 'OK' || (Array.isArray(v) && v[0] === 'OK');
  } catch {
    return false;
  }
}

export type StatusOutcome = { state: 'loading' } | { state: 'ok' } | { state: 'fault'; message: string };

/** GET {url} with a JSON content type and an 8 s timeout; the outcome, never a throw. */
export async function checkStatus(url: string, timeoutMs = STATUS_TIMEOUT_MS): Promise<StatusOutcome> {
  const target = withScheme(url);
  try {
    const res = await fetch(target, {
      headers: { 'Content-Type': 'application/json' },
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    if (res.ok && isHealthyBody(text)) return { state: 'ok' };
    const message = res.ok
      ? `Unexpected answer "${text.slice(0, 80)}"`
      : `Error: ${res.status} ${res.statusText}`;
    return { state: 'fault', message: `${message} on ${target}` };
  } catch (err) {
    const message =
      err instanceof DOMException && err.name === 'TimeoutError'
        ? `No answer within ${timeoutMs / 1000} s`
        : err instanceof Error
          ? err.message
          : 'An unknown error occurred';
    return { state: 'fault', message: `${message} on ${target}` };
  }
}

/** "Rest Server Status" (spec section 2): whether the statistics service answers. */
export function StatusCard({ url }: { url: string }) {
  const [outcome, setOutcome] = useState<StatusOutcome>({ state: 'loading' });
  useEffect(() => {
    let live = true;
    setOutcome({ state: 'loading' });
    void checkStatus(url).then((o) => {
      if (live) setOutcome(o);
    });
    return () => {
      live = false;
    };
  }, [url]);
  const colour = outcome.state === 'ok' ? 'success' : outcome.state === 'fault' ? 'danger' : 'secondary';
  return (
    <Card border={colour} className="h-100" data-testid="status-card" data-state={outcome.state}>
      <Card.Header className={`bg-${colour}-subtle`}>
        <h2 className="h6 mb-0">Rest Server Status</h2>
      </Card.Header>
      <Card.Body>
        {outcome.state === 'loading' ? (
          <p className="mb-0" role="status">
            Loading...
          </p>
        ) : outcome.state === 'ok' ? (
          <p className="mb-0" role="status">
            <Badge bg="success">OK</Badge> <span className="small text-break">{withScheme(url)}</span>
          </p>
        ) : (
          <div role="alert">
            <Badge bg="danger">FAULT</Badge>
            <p className="mb-0 mt-2 small text-break">{outcome.message}</p>
          </div>
        )}
      </Card.Body>
    </Card>
  );
}
