import fs from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

// Issue 28, point 10: Node 20 is what every machine here runs; the tree, every `engines` field and
// the README promise the same lowest version, and no installed package asks for more.
const root = new URL('../../../', import.meta.url);
const read = (file: string) => fs.readFileSync(new URL(file, root), 'utf8');

const LOWEST = '20.19.0';
const MANIFESTS = [
  'package.json',
  'packages/domain/package.json',
  'packages/contract/package.json',
  'packages/server/package.json',
  'packages/web/package.json',
  'e2e/package.json',
];

interface LockedPackage {
  version?: string;
  engines?: Record<string, string> | string[];
}

describe('Node 20 stays supported', () => {
  it('every engines field and the README name Node 20.19 as the lowest version', () => {
    for (const manifest of MANIFESTS) {
      const { engines } = JSON.parse(read(manifest)) as { engines?: { node?: string } };
      expect(engines?.node, manifest).toBe(`>=${LOWEST}`);
      expect(semver.minVersion(engines!.node!)?.version, manifest).toBe(LOWEST);
    }
    expect(read('README.md')).toContain('Node.js ≥ 20.19');
  });

  it('no package in package-lock.json declares a Node range that excludes Node 20.19 or the latest 20', () => {
    const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, LockedPackage> };
    const ranges = Object.entries(lock.packages).flatMap(([name, p]) => {
      // A few old packages give engines as a list of strings ("node >= 0.8"): only objects are read by npm.
      const range = p.engines && !Array.isArray(p.engines) ? p.engines.node : undefined;
      return range ? [{ name: name || '(root)', version: p.version, range }] : [];
    });
    expect(ranges.length).toBeGreaterThan(100);
    const excluding = ranges
      .filter(({ range }) => !['20.19.0', '20.20.2'].every((v) => semver.satisfies(v, range)))
      .map(({ name, version, range }) => `${name}@${version} (node ${range})`);
    expect(excluding).toEqual([]);
  });

  it('resolves cookie to a release that supports Node 20 (2.x declared Node ≥ 22)', () => {
    const manifest = JSON.parse(read('package.json')) as { overrides?: Record<string, string> };
    const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, LockedPackage> };
    const cookies = Object.entries(lock.packages).filter(([name]) =>
      /(^|\/)node_modules\/cookie$/.test(name),
    );
    expect(cookies.length).toBeGreaterThan(0);
    for (const [name, p] of cookies) expect(p.version, name).toBe(manifest.overrides?.cookie);
  });
});
