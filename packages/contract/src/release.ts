/**
 * The release this code is: the root package.json's `version` (semantic versioning, CHANGELOG.md).
 * A constant here rather than a read of package.json at run time, so the server, the browser app and
 * its server renderer all show it without a file to find; `release.test.ts` fails when the two differ.
 */
export const BVDB_VERSION = '1.1.0';
