#!/usr/bin/env node
// The operators' commands (`npm run export`, `import`, `user:create`, `user:password`, `migrate`):
// `node scripts/cli.mjs <name> [args…]` builds the server first when it is missing or older than
// its sources, by the same check as `npm start` (scripts/start.mjs), so a fresh clone or a
// `git pull` never runs old code; the web app is not built (no command serves it).
// BVDB_SKIP_BUILD=1 skips the check (a tree built once, e.g. in an image). The command then runs
// in this process, with the arguments it was given.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildStale, repoRoot } from './start.mjs';

const COMMANDS = ['export', 'import', 'user-create', 'user-password', 'migrate'];

const [name = '', ...args] = process.argv.slice(2);
if (!COMMANDS.includes(name)) {
  console.error(`usage: node scripts/cli.mjs <${COMMANDS.join('|')}> [arguments]`);
  process.exit(2);
}
if (process.env.BVDB_SKIP_BUILD !== '1') buildStale(['server']);
const entry = path.join(repoRoot, 'packages/server/dist/cli', `${name}.js`);
if (!fs.existsSync(entry)) {
  console.error(
    `bvdb: ${entry} is missing: build the server (npx tsc -b packages/server/tsconfig.build.json).`,
  );
  process.exit(1);
}
// The command reads its arguments from process.argv as if it had been run itself.
process.argv = [process.argv[0], entry, ...args];
await import(pathToFileURL(entry).href);
