// A throw-away PostgreSQL cluster for the tests (never the machine's own): initdb into a
// temporary folder, started on a free loopback port with its socket in that folder, trust
// authentication, stopped and removed afterwards. As root (CI) the server runs as the
// `postgres` user, as PostgreSQL requires. Each test file gets its own database in it.
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { freePort } from '../../scripts/launch-server.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Debian's PostgreSQL binaries (the `postgresql` package), newest version first. */
export function postgresBinDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => /^\d+$/.test(v) && existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : null;
}

function run(bin: string, args: string[], asPostgres: boolean): void {
  const result = asPostgres
    ? spawnSync('su', ['postgres', '-s', '/bin/sh', '-c', [bin, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ')], {
        encoding: 'utf8',
      })
    : spawnSync(bin, args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${bin} ${args.join(' ')} failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
}

export type PostgresCluster = {
  /** postgres://postgres@127.0.0.1:PORT/postgres */
  url: string;
  port: number;
  /** Stops the server, keeping its data (a database that goes away)… */
  pause: () => void;
  /** …and starts it again on the same port. */
  resume: () => void;
  stop: () => void;
};

/** Starts a cluster; throws with the reason when PostgreSQL is not installed or fails to start. */
export async function startPostgres(): Promise<PostgresCluster> {
  const bin = postgresBinDir();
  if (!bin) throw new Error('PostgreSQL is not installed (apt-get install -y postgresql): no /usr/lib/postgresql/*/bin/initdb');
  const asPostgres = process.getuid?.() === 0;
  // In memory where the machine has it (/dev/shm): the cluster is thrown away, and its files never
  // need to reach the disk.
  const dir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'pg-test-'));
  if (asPostgres) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  const port = await freePort();
  run(join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale=C'], asPostgres);
  // Durability off: a test cluster is thrown away, and fsync on every commit only slows the suite.
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
  const start = () => run(join(bin, 'pg_ctl'), ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start'], asPostgres);
  start();
  let stopped = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    pause: () => run(join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop'], asPostgres),
    resume: start,
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        run(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop'], asPostgres);
      } catch {
        // Already stopped (paused): nothing to stop.
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** A fresh, empty database in the cluster, for one test file or test. */
export async function createTestDatabase(
  clusterUrl: string,
  name = `t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`,
): Promise<string> {
  await onCluster(clusterUrl, `CREATE DATABASE "${name}" TEMPLATE template0`);
  createdInFile.push({ clusterUrl, name });
  const url = new URL(clusterUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** The databases made since the last drop: a file's, dropped when it ends (test/setup/file-resources.ts). */
const createdInFile: { clusterUrl: string; name: string }[] = [];

/**
 * Drops the databases the file made, ending whatever connection is still open on them: a run
 * makes thousands (one per test), and a cluster that kept them all grew to gigabytes that its
 * stop then spent minutes deleting.
 */
export async function dropTestDatabases(): Promise<void> {
  for (const { clusterUrl, name } of createdInFile.splice(0)) {
    await onCluster(clusterUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => undefined);
  }
}

async function onCluster(clusterUrl: string, statement: string): Promise<void> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: clusterUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
