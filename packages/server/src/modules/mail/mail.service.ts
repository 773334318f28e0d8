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
  await deliverMessages(deps, messages);
}

/**
 * Sends each message through Mailgun, `parallel` at a time, never throwing: failures are logged and
 * counted. `null` when Mailgun is not configured (nothing sent).
 */
export async function deliverMessages(
  deps: Pick<ServiceDeps, 'config' | 'log'>,
  messages: readonly Message[],
  parallel = 8,
): Promise<{ sent: number; failed: number } | null> {
  const settings = messageSettings(deps.config);
  if (!settings) return null;
  const tally = { sent: 0, failed: 0 };
  for (let i = 0; i < messages.length; i += parallel) {
    await Promise.all(
      messages.slice(i, i + parallel).map(async (m) => {
        try {
          await sendMailgunMessage(settings, m);
          tally.sent++;
        } catch (err) {
          tally.failed++;
          deps.log.warn({ to: m.to, subject: m.subject, err: (err as Error).message }, 'message not sent');
        }
      }),
    );
  }
  return tally;
}

/** A link to a page of the site, absolute when PUBLIC_URL is set. */
export const siteLink = (deps: Pick<ServiceDeps, 'config'>, path: string): string =>
  `${(deps.config.PUBLIC_URL ?? '').replace(/\/+$/, '')}${path}`;
