import fs from 'node:fs';
import path from 'node:path';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/client.js';

/** Writes docs/openapi.json from the routes as registered (the contract), for review in diffs. */
export async function generateOpenApi(): Promise<string> {
  const database = await openDatabase({ dataDir: 'memory://' });
  const app = await buildApp({
    config: loadConfig({ LOG_LEVEL: 'silent', WEB_DIST: '/nonexistent' }),
    database,
  });
  await app.ready();
  const text = `${JSON.stringify(app.swagger(), null, 2)}\n`;
  await app.close();
  await database.close();
  return text;
}

if (process.argv[1] && path.basename(process.argv[1]).startsWith('write-openapi')) {
  const out = path.resolve(process.argv[2] ?? 'docs/openapi.json');
  fs.writeFileSync(out, await generateOpenApi());
  console.log(`wrote ${out}`);
}
