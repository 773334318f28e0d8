import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { OPENAPI_INFO } from './app.js';
import { OTHER_SETTINGS, SETTINGS } from './config-reference.js';
import { MIGRATIONS_FOLDER } from './db/client.js';
import { useTestApp } from './test/test-app.js';

// CHANGELOG.md stays true (issue 43.7): every migration and every setting an operator can set is in
// it, and the version a running bvdb says it is (/healthz) is the newest release heading's. A new
// migration or setting fails this test until [Unreleased] (or a release) names it.
const root = path.resolve(import.meta.dirname, '../../..');
const changelog = fs.readFileSync(path.join(root, 'CHANGELOG.md'), 'utf8');
const ctx = useTestApp();

/** The release headings, newest first: `## [1.1.0] - 2026-11-28` → 1.1.0. */
const releases = [
  ...changelog.matchAll(/^## \[(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)\] - (\d{4}-\d{2}-\d{2})$/gm),
];

describe('CHANGELOG.md', () => {
  it('names every migration file', () => {
    const migrations = fs
      .readdirSync(MIGRATIONS_FOLDER)
      .filter((f) => f.endsWith('.sql'))
      .map((f) => f.slice(0, -'.sql'.length));
    expect(migrations.length).toBeGreaterThanOrEqual(12);
    expect(migrations.filter((m) => !changelog.includes(`\`${m}\``))).toEqual([]);
  });

  it("names every setting of the README's settings table", () => {
    const settings = Object.keys({ ...SETTINGS, ...OTHER_SETTINGS });
    expect(settings).toContain('WARM_UP_READY_SECONDS');
    expect(settings.filter((name) => !changelog.includes(`\`${name}\``))).toEqual([]);
  });

  it('keeps an [Unreleased] heading above the newest release', () => {
    const unreleased = changelog.indexOf('\n## [Unreleased]\n');
    expect(unreleased).toBeGreaterThan(-1);
    expect(releases.length).toBeGreaterThanOrEqual(2);
    expect(unreleased).toBeLessThan(releases[0]!.index);
    // Newest first, each date no earlier than the next one's.
    for (let i = 1; i < releases.length; i++) expect(releases[i - 1]![2]! >= releases[i]![2]!).toBe(true);
  });

  it('has the version /healthz serves, and the OpenAPI document, as its newest release', async () => {
    const newest = releases[0]![1];
    const res = await ctx.app.inject({ url: '/healthz' });
    expect(res.json<{ version: string }>().version).toBe(newest);
    expect(OPENAPI_INFO.version).toBe(newest);
    const committed = JSON.parse(fs.readFileSync(path.join(root, 'docs/openapi.json'), 'utf8')) as {
      info: { version: string };
    };
    expect(committed.info.version).toBe(newest);
    const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
      version: string;
      packages: Record<string, { version?: string }>;
    };
    expect([lock.version, lock.packages['']!.version]).toEqual([newest, newest]);
  });
});
