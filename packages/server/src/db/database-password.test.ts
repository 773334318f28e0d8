import net from 'node:net';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { openDatabase, redactDatabaseUrl, withPassword } from './client.js';

// A database password that is not URL-safe (issue 43.9): every character a URL gives a meaning to,
// `%` (which a URL decodes), quotes, a backslash, a space and a letter beyond ASCII. compose hands it
// to bvdb as PGPASSWORD beside a DATABASE_URL without one; the app puts it into the URL it connects
// with, percent-encoded (decision 080).
const PASSWORD = `a/b@c:d#e?f%2Fg&h=i+j k'l"m\\n;é$`;

/** The environment as compose gives it: the URL without a password, the password on its own. */
const configFor = (url: string) => loadConfig({ DATABASE_URL: url, PGPASSWORD: PASSWORD });

/**
 * A stand-in PostgreSQL server that asks for the password in clear text (AuthenticationCleartext-
 * Password) and refuses it after noting it: what a server that checks passwords receives.
 */
async function passwordCatcher(): Promise<{ url: string; received: Promise<string>; close: () => void }> {
  let resolveReceived!: (password: string) => void;
  const received = new Promise<string>((resolve) => (resolveReceived = resolve));
  const server = net.createServer((socket) => {
    let buffer = Buffer.alloc(0);
    let started = false;
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (!started) {
        if (buffer.length < 4 || buffer.length < buffer.readInt32BE(0)) return;
        buffer = buffer.subarray(buffer.readInt32BE(0)); // the startup message: user, database…
        started = true;
        const askCleartext = Buffer.alloc(9);
        askCleartext.write('R', 0);
        askCleartext.writeInt32BE(8, 1);
        askCleartext.writeInt32BE(3, 5);
        socket.write(askCleartext);
      }
      if (buffer.length < 5 || buffer.length < 1 + buffer.readInt32BE(1)) return;
      // 'p', length, the password and a zero byte.
      resolveReceived(buffer.subarray(5, 1 + buffer.readInt32BE(1) - 1).toString('utf8'));
      const fields = Buffer.from('SFATAL\0C28P01\0Mpassword authentication failed\0\0');
      const refusal = Buffer.alloc(5);
      refusal.write('E', 0);
      refusal.writeInt32BE(4 + fields.length, 1);
      socket.end(Buffer.concat([refusal, fields]));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return { url: `postgres://bvdb@127.0.0.1:${port}/bvdb`, received, close: () => server.close() };
}

describe('a database password with / @ : # ? % (issue 43.9)', () => {
  it('reaches the server exactly as written, through the config and openDatabase', async () => {
    const catcher = await passwordCatcher();
    try {
      const config = configFor(catcher.url);
      const opening = openDatabase({
        databaseUrl: config.DATABASE_URL,
        password: config.PGPASSWORD,
        dataDir: 'unused',
        connect: { waitMs: 0 },
      });
      await expect(opening).rejects.toThrow(/password authentication failed/);
      expect(await catcher.received).toBe(PASSWORD);
    } finally {
      catcher.close();
    }
  });

  it('is never logged: the URL with it is redacted, and a password in the URL itself wins', () => {
    const url = withPassword('postgres://bvdb@db:5432/bvdb', PASSWORD);
    expect(redactDatabaseUrl(url)).toBe('postgres://bvdb:***@db:5432/bvdb');
    expect(withPassword('postgres://bvdb:own@db:5432/bvdb', PASSWORD)).toBe(
      'postgres://bvdb:own@db:5432/bvdb',
    );
    expect(withPassword('postgres://bvdb@db:5432/bvdb', undefined)).toBe('postgres://bvdb@db:5432/bvdb');
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('on the PostgreSQL server (issue 43.9)', () => {
  const suffix = `${process.pid}_${Date.now()}`;
  const role = `bvdb_pw_${suffix}`;
  const name = `bvdb_pw_db_${suffix}`;
  const admin = () => new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });

  afterAll(async () => {
    const c = admin();
    await c.connect();
    await c.query(`drop database if exists ${name} with (force)`);
    await c.query(`drop role if exists ${role}`);
    await c.end();
  });

  it('a role with that password connects, migrates and queries through the app', async () => {
    const c = admin();
    await c.connect();
    await c.query(`create role ${role} login password ${c.escapeLiteral(PASSWORD)}`);
    await c.query(`create database ${name} owner ${role}`);
    await c.end();
    // This machine's pg_hba.conf trusts local connections, so the server does not check the password
    // here; the stand-in above shows what a checking server receives. This is the rest of the path:
    // the URL the app builds is one the driver and the server accept, for that role and database.
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.username = role;
    url.password = '';
    url.pathname = `/${name}`;
    const config = configFor(url.toString());
    const database = await openDatabase({
      databaseUrl: config.DATABASE_URL,
      password: config.PGPASSWORD,
      dataDir: 'unused',
      connect: { waitMs: 0 },
    });
    try {
      const { rows } = await database.execute('select current_user as who, current_database() as db');
      expect(rows).toEqual([{ who: role, db: name }]);
      // The LISTEN connection (change signal) connects with the same URL.
      const listen = new pg.Client({ connectionString: database.connectionString });
      await listen.connect();
      expect((await listen.query('select current_user as who')).rows).toEqual([{ who: role }]);
      await listen.end();
    } finally {
      await database.close();
    }
  });
});
