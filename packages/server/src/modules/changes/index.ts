// The changes module's face (decision 077): what the rest of the server may use of it.
export { registerChangeRoutes } from './changes.routes.js';
export {
  buildReleaseNotes,
  changeLogOf,
  hasChangesAfter,
  latestChangeCursor,
  type ChangedRecord,
} from './changes.service.js';
