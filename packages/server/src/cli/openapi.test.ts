import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { generateOpenApi } from './write-openapi.js';

const committed = fileURLToPath(new URL('../../../../docs/openapi.json', import.meta.url));

describe('docs/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document in sync with the code (run `npm run openapi` after changing the contract)', async () => {
    const generated = await generateOpenApi();
    const doc = JSON.parse(generated) as {
      openapi: string;
      info: { title: string };
      paths: Record<string, Record<string, { responses: object }>>;
    };
    expect(doc.openapi).toBe('3.1.0');
    for (const [p, methods] of Object.entries(doc.paths)) {
      expect(p.startsWith('/')).toBe(true);
      for (const op of Object.values(methods)) expect(Object.keys(op.responses).length).toBeGreaterThan(0);
    }
    expect(fs.readFileSync(committed, 'utf8')).toBe(generated);
  });
});
