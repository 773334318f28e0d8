import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from './config.js';

// What the Dockerfile, compose.yaml and .dockerignore promise an operator (issue 43.12), read as
// files: there is no container daemon on these machines. e2e/tests/container.spec.ts runs the
// runtime stage's command on its file set.
const root = path.resolve(import.meta.dirname, '../../..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');
const version = (JSON.parse(read('package.json')) as { version: string }).version;

interface ComposeService {
  image?: string;
  build?: unknown;
  pull_policy?: string;
  logging?: { driver?: string; options?: Record<string, string> };
  stop_grace_period?: string;
}
const compose = parse(read('compose.yaml'), { merge: true }) as { services: Record<string, ComposeService> };

/** `${VAR:-default}` → default; anything else as written. */
const defaultOf = (value: string) => /^\$\{[A-Z_]+:-(.+)\}$/.exec(value)?.[1] ?? value;
const seconds = (text: string) => {
  const m = /^(\d+)(s|m)$/.exec(text);
  if (!m) throw new Error(`not a duration: ${text}`);
  return Number(m[1]) * (m[2] === 'm' ? 60 : 1);
};

describe('the Dockerfile', () => {
  const dockerfile = read('Dockerfile');

  it('builds every stage on a Node LTS line in support (22 or 24; Node 20 ended in April 2026)', () => {
    const base = /^ARG NODE_IMAGE=node:(\d+)[\w.-]*$/m.exec(dockerfile);
    expect(base, 'ARG NODE_IMAGE=node:<major>…').not.toBeNull();
    expect(['22', '24']).toContain(base![1]);
    // The line the tests do not run must still be one `engines` admits (its floor is what they run).
    const { engines } = JSON.parse(read('package.json')) as { engines: { node: string } };
    expect(semver.satisfies(`${base![1]}.0.0`, engines.node)).toBe(true);
    const froms = [...dockerfile.matchAll(/^FROM (\S+)/gm)].map((m) => m[1]);
    expect(froms.length).toBe(3);
    for (const from of froms) expect(from).toBe('${NODE_IMAGE}');
  });

  it("gives the health check a start period that covers WARM_UP_READY_SECONDS's default and the migrations", () => {
    const period = /^HEALTHCHECK .*--start-period=(\w+)/m.exec(dockerfile);
    expect(period).not.toBeNull();
    const warmUp = loadConfig({}).WARM_UP_READY_SECONDS;
    expect(seconds(period![1]!)).toBeGreaterThanOrEqual(warmUp + 30);
    expect(/^HEALTHCHECK[^\n]*\\\n\s+CMD [^\n]*\/readyz/m.test(dockerfile)).toBe(true);
  });

  it('names tests that exist', () => {
    for (const file of ['Dockerfile', 'compose.yaml', '.dockerignore']) {
      const named = [...read(file).matchAll(/[\w./-]+\.(?:test|spec)\.ts/g)].map((m) => m[0]);
      expect(named.length, `${file} names the test that checks it`).toBeGreaterThan(0);
      for (const test of named) expect(fs.existsSync(path.join(root, test)), `${file}: ${test}`).toBe(true);
    }
  });
});

describe('.dockerignore', () => {
  const patterns = read('.dockerignore')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));

  it("leaves the host's installs, builds and the git folder out of the build context", () => {
    for (const p of ['**/node_modules', '**/dist', '**/dist-ssr', '**/*.tsbuildinfo', '.git', '.env'])
      expect(patterns).toContain(p);
  });

  it('leaves out no file of the repository the image is built from', () => {
    const tracked = spawnSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).stdout.split('\n');
    expect(tracked.length).toBeGreaterThan(100);
    // `**/name` drops any path with that part; `**/*.ext` any file so named.
    const dropped = (file: string) =>
      patterns.some((p) => {
        if (p.startsWith('!')) return false;
        const name = p.replace(/^\*\*\//, '').replace(/^\//, '');
        const parts = file.split('/');
        if (name.startsWith('*.')) return file.endsWith(name.slice(1));
        return p.startsWith('**/') ? parts.includes(name) : parts[0] === name;
      });
    const copied = tracked.filter(
      (f) =>
        f.startsWith('packages/') ||
        [
          'package.json',
          'package-lock.json',
          'tsconfig.base.json',
          'scripts/start.mjs',
          'scripts/cli.mjs',
        ].includes(f),
    );
    expect(copied.filter(dropped)).toEqual([]);
  });
});

describe('compose.yaml', () => {
  const bvdb = ['migrate', 'web', 'worker'].map((name) => [name, compose.services[name]!] as const);

  it(`runs migrate, web and worker from one image named bvdb:${version}, built from this Dockerfile`, () => {
    const images = new Set(bvdb.map(([, s]) => s.image));
    expect(images.size).toBe(1);
    expect(defaultOf([...images][0]!)).toBe(`bvdb:${version}`);
    for (const [name, service] of bvdb) {
      expect(service.build, name).toBe('.');
      expect(service.pull_policy, name).toBe('missing');
    }
  });

  it('rotates the log of every service', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      expect(service.logging?.driver, name).toBe('json-file');
      expect(service.logging?.options?.['max-size'], name).toMatch(/^\d+m$/);
      expect(Number(service.logging?.options?.['max-file']), name).toBeGreaterThan(1);
    }
  });

  it('gives the web replicas time to drain before they are killed', () => {
    const drain = loadConfig({}).SHUTDOWN_DRAIN_SECONDS;
    expect(seconds(compose.services.web!.stop_grace_period!)).toBeGreaterThanOrEqual(drain + 10);
  });
});
