import { postMailgunForm } from '../../lib/mailgun-post.js';
import type { Config } from '../../config.js';

const MAILGUN_DEFAULT_BASE_URL = 'https://api.mailgun.net';
/** The spec's timeout for outside calls (section 9). */
const MAILGUN_TIMEOUT_MS = 8000;

export interface MessageSettings {
  apiKey: string;
  baseUrl: string;
  domain: string;
  from: string;
  timeoutMs: number;
}

export interface Message {
  to: string;
  subject: string;
  text: string;
}

/** E-mail is sent only when the Mailgun key and sending domain are set. */
export function messageSettings(
  config: Pick<Config, 'MAILGUN_API_KEY' | 'MAILGUN_DOMAIN' | 'MAILGUN_BASE_URL' | 'MAIL_FROM'>,
  timeoutMs = MAILGUN_TIMEOUT_MS,
): MessageSettings | null {
  const apiKey = config.MAILGUN_API_KEY?.trim();
  const domain = config.MAILGUN_DOMAIN?.trim();
  if (!apiKey || !domain) return null;
  return {
    apiKey,
    domain,
    baseUrl: (config.MAILGUN_BASE_URL ?? MAILGUN_DEFAULT_BASE_URL).replace(/\/+$/, ''),
    from: config.MAIL_FROM ?? `bvdb <noreply@${domain}>`,
    timeoutMs,
  };
}

/**
 * Sends one message through Mailgun's sending API: `POST /v3/{domain}/messages`, HTTP basic auth
 * `api:{key}`, form-encoded `from`, `to`, `subject`, `text`. Throws with a short reason on failure.
 */
export async function sendMailgunMessage(settings: MessageSettings, message: Message): Promise<void> {
  const form = new URLSearchParams({
    from: settings.from,
    to: message.to,
    subject: message.subject,
    text: message.text,
  });
  const res = await postMailgunForm(settings, `/v3/${encodeURIComponent(settings.domain)}/messages`, form);
  const body = await res.text().catch(() => '');
  if (!res.ok) throw new Error(`Mailgun answered ${res.status}: ${body.slice(0, 200)}`);
}
