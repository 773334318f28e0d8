import type { ServiceDeps } from '../../lib/service-deps.js';
import { messageSettings, sendMailgunMessage, type Message } from './mailgun-messages.js';

/**
 * Notifications (decision 009): sent after the change they announce has committed, one message per
 * recipient, never failing the request: a failure is logged. Without Mailgun settings nothing is
 * sent (the board and "My appraisals" show the same facts).
 */
export async function sendNotifications(
  deps: Pick<ServiceDeps, 'config' | 'log'>,
  messages: readonly Message[],
): Promise<void> {
  const settings = messageSettings(deps.config);
  if (!settings || messages.length === 0) return;
  await Promise.all(
    messages.map(async (m) => {
      try {
        await sendMailgunMessage(settings, m);
      } catch (err) {
        deps.log.warn({ to: m.to, subject: m.subject, err: (err as Error).message }, 'notification not sent');
      }
    }),
  );
}

/** A link to a page of the site, absolute when PUBLIC_URL is set. */
export const siteLink = (deps: Pick<ServiceDeps, 'config'>, path: string): string =>
  `${(deps.config.PUBLIC_URL ?? '').replace(/\/+$/, '')}${path}`;

export type { Message };
