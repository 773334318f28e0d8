#!/usr/bin/env node
// `npm start`: build whatever is not built yet, then run the server (API + app + job worker).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const outputs = {
  domain: 'packages/domain/dist/index.js',
  contract: 'packages/contract/dist/index.js',
  server: 'packages/server/dist/main.js',
  web: 'packages/web/dist/index.html',
};

function run(cmd, args) {
  const res = spawnSync(cmd, args, { stdio: 'inherit', shell: false });
  if (res.status !== 0) process.exit(res.status ?? 1);
}

if (!existsSync(outputs.domain) || !existsSync(outputs.contract) || !existsSync(outputs.server)) {
  console.log('bvdb: building the server…');
  run('npx', ['tsc', '-b', 'packages/server/tsconfig.build.json']);
}
if (!existsSync(outputs.web)) {
  console.log('bvdb: building the web app…');
  run('npm', ['run', 'build', '-w', '@bvdb/web']);
}
const child = spawnSync(process.execPath, [outputs.server, ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(child.status ?? 1);
