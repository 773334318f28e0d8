// The backup module's face (decision 077): what the rest of the server may use of it.
export { registerBackupRoutes } from './backup.routes.js';
export { backupScopeFor, exportDatabaseJson, streamPublishedDatabaseJson } from './backup.service.js';
export type { BackupScope } from './backup-file.js';
export { importDatabaseJson, type ImportMode } from './backup-import.service.js';
export { backupFolderFor } from './before-replace-backup.js';
