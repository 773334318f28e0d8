// The mailing-list module's face (decision 077): what the rest of the server may use of it.
export { registerMailingListRoutes } from './mailing-list.routes.js';
export { listMemberAddresses } from './mailing-list.service.js';
