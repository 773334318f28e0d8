import { postMailgunForm } from '../../lib/mailgun-post.js';
import type { Config } from '../../config.js';

const MAILGUN_DEFAULT_BASE_URL = 'https://api.mailgun.net';
/** The spec's timeout for outside calls (section 9). */
const MAILGUN_TIMEOUT_MS = 8000;

export interface MailgunSettings {
  apiKey: string;
  baseUrl: string;
  /** The list's address, e.g. `bv-news@mg.example.org`. */
  listAddress: string;
  timeoutMs: number;
}

export class MailgunError extends Error {}

/**
 * Mailgun is used only when the key, the domain and the list are all set. MAILGUN_LIST may be a full
 * list address or just its local part, completed with MAILGUN_DOMAIN.
 */
export function mailgunSettings(
  config: Pick<Config, 'MAILGUN_API_KEY' | 'MAILGUN_DOMAIN' | 'MAILGUN_LIST' | 'MAILGUN_BASE_URL'>,
  timeoutMs = MAILGUN_TIMEOUT_MS,
): MailgunSettings | null {
  const apiKey = config.MAILGUN_API_KEY?.trim();
  const domain = config.MAILGUN_DOMAIN?.trim();
  const list = config.MAILGUN_LIST?.trim();
  if (!apiKey || !domain || !list) return null;
  return {
    apiKey,
    baseUrl: (config.MAILGUN_BASE_URL ?? MAILGUN_DEFAULT_BASE_URL).replace(/\/+$/, ''),
    listAddress: list.includes('@') ? list : `${list}@${domain}`,
    timeoutMs,
  };
}

/**
 * Adds or updates one member of a Mailgun mailing list: `POST /v3/lists/{list}/members`, HTTP basic
 * auth `api:{key}`, form-encoded `address`, `name`, `subscribed=yes`, `upsert=yes`.
 * Any failure (unreachable, timeout, non-2xx) is a MailgunError with a message fit for an admin.
 */
export async function addMailgunListMember(
  settings: MailgunSettings,
  member: { email: string; name: string | null },
): Promise<void> {
  const form = new URLSearchParams({ address: member.email, subscribed: 'yes', upsert: 'yes' });
  if (member.name) form.set('name', member.name);
  let res: Response;
  try {
    res = await postMailgunForm(
      settings,
      `/v3/lists/${encodeURIComponent(settings.listAddress)}/members`,
      form,
    );
  } catch (err) {
    throw new MailgunError((err as Error).message);
  }
  if (res.ok) {
    await res.body?.cancel();
    return;
  }
  const text = await res.text().catch(() => '');
  let detail = '';
  try {
    const json = JSON.parse(text) as { message?: unknown };
    if (typeof json.message === 'string') detail = json.message;
  } catch {
    detail = text.trim().slice(0, 200);
  }
  const reason =
    res.status === 401 || res.status === 403
      ? 'Mailgun refused the API key'
      : `Mailgun answered ${res.status}${detail ? `: ${detail}` : ''}`;
  throw new MailgunError(reason);
}
