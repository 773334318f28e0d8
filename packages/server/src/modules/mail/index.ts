// The mail module's face (decision 077): what the rest of the server may use of it.
export { deliverMessages, sendNotifications, siteLink } from './mail.service.js';
export type { Message } from './mailgun-messages.js';
