import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeMailgunBehaviour = 'ok' | 'error' | 'slow' | 'down';

export interface FakeMailgunRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  contentType: string | undefined;
  form: Record<string, string>;
}

/**
 * A stand-in for Mailgun's sending API (`POST /v3/{domain}/messages`: a known domain, form-encoded
 * `from`, `to`, `subject` and `text` or `html`) and its mailing-list API, strict the way Mailgun is: `POST /v3/lists/{address}/members`
 * with HTTP basic auth `api:{key}` (401 "Forbidden" otherwise), a form-encoded body with a valid
 * `address` (400 otherwise), an existing list (404), and 400 "Address already exists" on a repeated
 * address unless `upsert=yes`.
 */
export async function startFakeMailgun(opts: { apiKey: string; lists: string[]; domains?: string[] }) {
  let behaviour: FakeMailgunBehaviour = 'ok';
  const requests: FakeMailgunRequest[] = [];
  /** Messages accepted by `POST /v3/{domain}/messages`, as Mailgun's sending API takes them. */
  const messages: { domain: string; from: string; to: string; subject: string; text: string }[] = [];
  const domains = new Set(opts.domains ?? []);
  const members = new Map<string, Map<string, { address: string; name: string; subscribed: boolean }>>();
  for (const list of opts.lists) members.set(list, new Map());
  const expectedAuth = `Basic ${Buffer.from(`api:${opts.apiKey}`).toString('base64')}`;

  const server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (raw += c));
    req.on('end', () => void respond());
    const respond = () => {
      const path = decodeURIComponent((req.url ?? '').split('?')[0]!);
      const contentType = req.headers['content-type'];
      const form = Object.fromEntries(new URLSearchParams(raw));
      requests.push({
        method: req.method ?? '',
        path,
        authorization: req.headers.authorization,
        contentType,
        form,
      });
      const send = (status: number, body: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (behaviour === 'down') return req.socket.destroy();
      if (behaviour === 'slow') return void setTimeout(() => send(200, { message: 'late' }), 3000);
      if (behaviour === 'error') return send(500, { message: 'Internal error' });
      if (req.headers.authorization !== expectedAuth) {
        return res.writeHead(401, { 'content-type': 'text/plain' }).end('Forbidden');
      }
      const sending = /^\/v3\/([^/]+)\/messages$/.exec(path);
      if (req.method === 'POST' && sending) {
        if (!domains.has(sending[1]!)) return send(404, { message: `Domain not found: ${sending[1]}` });
        if (!contentType?.startsWith('application/x-www-form-urlencoded')) {
          return send(400, { message: 'Unsupported content type' });
        }
        for (const field of ['from', 'to', 'subject'] as const) {
          if (!form[field]) return send(400, { message: `${field} parameter is missing` });
        }
        if (!form.text && !form.html) return send(400, { message: 'Need at least one of text or html' });
        const id = `<${messages.length + 1}.fake@${sending[1]}>`;
        messages.push({
          domain: sending[1]!,
          from: form.from!,
          to: form.to!,
          subject: form.subject!,
          text: form.text ?? '',
        });
        return send(200, { id, message: 'Queued. Thank you.' });
      }
      const m = /^\/v3\/lists\/([^/]+)\/members$/.exec(path);
      if (req.method !== 'POST' || !m) return send(404, { message: 'Not Found' });
      const list = members.get(m[1]!);
      if (!list) return send(404, { message: `Mailing list ${m[1]} not found` });
      if (
        !contentType?.startsWith('application/x-www-form-urlencoded') &&
        !contentType?.startsWith('multipart/form-data')
      ) {
        return send(400, { message: 'Unsupported content type' });
      }
      const address = form.address ?? '';
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(address))
        return send(400, { message: "'address' parameter is not a valid address" });
      if (form.subscribed && !['yes', 'no', 'true', 'false'].includes(form.subscribed)) {
        return send(400, { message: "'subscribed' parameter must be yes or no" });
      }
      const key = address.toLowerCase();
      const exists = list.has(key);
      if (exists && form.upsert !== 'yes')
        return send(400, { message: `Address already exists '${address}'` });
      const member = { address, name: form.name ?? '', subscribed: form.subscribed !== 'no' };
      list.set(key, member);
      return send(200, {
        member: { ...member, vars: {} },
        message: exists ? 'Mailing list member has been updated' : 'Mailing list member has been created',
      });
    };
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    members,
    messages,
    set: (b: FakeMailgunBehaviour) => {
      behaviour = b;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
