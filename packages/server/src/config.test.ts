import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, SAMPLE_PASSWORDS } from './config.js';

const root = path.resolve(import.meta.dirname, '../../..');

/** The message loadConfig stops with, or null when the environment is accepted. */
function refusal(env: Record<string, string>): string | null {
  try {
    loadConfig(env);
    return null;
  } catch (err) {
    if (err instanceof ConfigError) return err.message;
    throw err;
  }
}

describe('DATABASE_URL (issue 43.10)', () => {
  // A password with `/ @ : # ?` written into the URL unencoded: each of these can never connect.
  it.each([
    ['a "/" in the password, before a letter', 'postgres://bvdb:ab/cd@db:5432/bvdb', true],
    ['a "/" in the password, after digits', 'postgres://bvdb:12/cd@db:5432/bvdb', true],
    ['a "#" in the password', 'postgres://bvdb:12#cd@db:5432/bvdb', true],
    ['a "#" after letters', 'postgres://bvdb:ab#cd@db:5432/bvdb', true],
    ['a "?" in the password', 'postgres://bvdb:1?cd@db:5432/bvdb', true],
    ['a "?" after letters', 'postgres://bvdb:ab?cd@db:5432/bvdb', true],
    ['a port that is not a number', 'postgres://bvdb@db:port/bvdb', true],
    ['a space in the host', 'postgres://bvdb@d b:5432/bvdb', true],
    ['no host', 'postgres:///bvdb', false],
    ['no host after the user', 'postgres://bvdb@/bvdb', false],
  ])('refuses a URL with %s, naming DATABASE_URL', (_what, url, aboutPassword) => {
    // A password with `/ @ : # ?` written into the URL unencoded: each of these can never connect.
    const message = refusal({ DATABASE_URL: url });
    expect(message).toMatch(/^Invalid environment:\n {2}DATABASE_URL: /);
    // Nothing of the password is said back (`cd` is the part after the "/", "#" or "?").
    expect(message).not.toMatch(/cd/);
    if (aboutPassword) expect(message).toContain('PGPASSWORD');
  });

  it.each([
    'postgres://bvdb@db:5432/bvdb',
    'postgresql://bvdb:s3cret@127.0.0.1/bvdb',
    // The same awkward password, percent-encoded: a valid URL.
    `postgres://bvdb:${encodeURIComponent('a/b@c:d#e?f')}@db:5432/bvdb`,
    // An "@" in the password: the URL's last "@" ends the user part.
    'postgres://bvdb:p@ss@db:5432/bvdb',
    'postgres://bvdb@db/bvdb?sslmode=verify-full&application_name=x',
    'postgres://bvdb@/bvdb?host=/var/run/postgresql',
    'postgres://bvdb@[::1]:5432/bvdb',
  ])('accepts %s', (url) => {
    expect(refusal({ DATABASE_URL: url })).toBeNull();
  });
});

describe('the sample passwords of .env.example (issue 43.8)', () => {
  it.each(SAMPLE_PASSWORDS)('refuses %s as ADMIN_PASSWORD, PGPASSWORD or in DATABASE_URL', (sample) => {
    expect(refusal({ ADMIN_PASSWORD: sample })).toMatch(/ADMIN_PASSWORD: is the public sample value/);
    expect(refusal({ PGPASSWORD: sample })).toMatch(/PGPASSWORD: is the public sample value/);
    expect(refusal({ DATABASE_URL: `postgres://bvdb:${sample}@db:5432/bvdb` })).toMatch(
      /DATABASE_URL: its password is the public sample value/,
    );
  });

  it('lists every password .env.example ever printed, and .env.example now ships none', () => {
    // The values the 1.0.0 file printed: refused even when copied from an old checkout.
    expect(SAMPLE_PASSWORDS).toEqual(['change-me-too', 'change-me-to-a-long-random-string']);
    const sample = fs.readFileSync(path.join(root, '.env.example'), 'utf8');
    const passwords = [...sample.matchAll(/^([A-Z_]*PASSWORD)=(.*)$/gm)];
    expect(passwords.map((m) => m[1])).toEqual(['POSTGRES_PASSWORD', 'ADMIN_PASSWORD']);
    for (const [, name, value] of passwords) expect(value, name).toBe('');
  });

  it('compose refuses to start without POSTGRES_PASSWORD and passes it as PGPASSWORD, never in a URL', () => {
    const compose = fs.readFileSync(path.join(root, 'compose.yaml'), 'utf8');
    expect(compose).toMatch(/POSTGRES_PASSWORD: \$\{POSTGRES_PASSWORD:\?[^}]+\}/);
    const urls = [...compose.matchAll(/DATABASE_URL: (\S+)/g)].map((m) => m[1]!);
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) {
      expect(url).not.toContain('PASSWORD');
      expect(url).toMatch(/^postgres:\/\/bvdb@db:5432\/bvdb$/);
    }
    expect(compose).toMatch(/PGPASSWORD: \$\{POSTGRES_PASSWORD:\?[^}]+\}/);
  });

  it("accepts a password of the operator's own", () => {
    expect(refusal({ ADMIN_PASSWORD: 'a long password of my own', PGPASSWORD: 'x/y@z:#?%' })).toBeNull();
  });
});
