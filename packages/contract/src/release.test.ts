import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BVDB_VERSION } from './release.js';

const root = new URL('../../../', import.meta.url);
const read = (file: string) => fs.readFileSync(new URL(file, root), 'utf8');

describe('the release version', () => {
  it('is the root package.json version, a semantic version', () => {
    const manifest = JSON.parse(read('package.json')) as { version: string };
    expect(BVDB_VERSION).toBe(manifest.version);
    expect(BVDB_VERSION).toMatch(/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/);
  });

  it('has its own section, with an Upgrading part, in CHANGELOG.md (Keep a Changelog)', () => {
    const changelog = read('CHANGELOG.md');
    expect(changelog).toContain('https://keepachangelog.com/');
    const heading = new RegExp(
      `^## \\[${BVDB_VERSION.replaceAll('.', '\\.')}\\] - \\d{4}-\\d{2}-\\d{2}$`,
      'm',
    );
    expect(changelog).toMatch(heading);
    // Every release section carries "### Upgrading" before the next release's heading.
    const sections = changelog
      .split(/^## /m)
      .slice(1)
      .filter((s) => !s.startsWith('[Unreleased]'));
    expect(sections.length).toBeGreaterThan(0);
    for (const section of sections) expect(section).toMatch(/^### Upgrading$/m);
  });
});

describe('licences', () => {
  it('LICENSE is the MIT licence every manifest names', () => {
    expect(read('LICENSE')).toMatch(/^MIT License\n/);
    for (const manifest of [
      'package.json',
      'packages/domain/package.json',
      'packages/contract/package.json',
      'packages/server/package.json',
      'packages/web/package.json',
      'e2e/package.json',
    ]) {
      expect((JSON.parse(read(manifest)) as { license?: string }).license, manifest).toBe('MIT');
    }
    expect(read('SECURITY.md')).toMatch(/## Reporting a vulnerability/);
    expect(read('SECURITY.md')).toMatch(/## Supported versions/);
  });
});
