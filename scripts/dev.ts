// `npm run dev`: rebuild on every change (esbuild watch) and restart the server.
import * as esbuild from 'esbuild';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { watch } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { build, clientBuildOptions, reactRouterProduction, ROOT, serverBuildOptions } from './build.ts';

let server: ChildProcess | null = null;
let restartTimer: NodeJS.Timeout | undefined;

// One session secret for all restarts, so that a rebuild does not sign everybody out.
const SESSION_SECRET = process.env.SESSION_SECRET ?? randomBytes(32).toString('base64url');

function startServer() {
  server = spawn(process.execPath, ['--enable-source-maps', join(ROOT, 'dist', 'server', 'main.js')], {
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'development', SESSION_SECRET },
  });
}

function restart(reason: string) {
  clearTimeout(restartTimer);
  restartTimer = setTimeout(async () => {
    console.log(`[dev] ${reason}: rebuilding and restarting`);
    try {
      await build({ quiet: true, primeCompileCache: false });
    } catch (error) {
      console.error('[dev] build failed:', (error as Error).message);
      return;
    }
    if (server && server.exitCode === null) {
      server.once('exit', startServer);
      server.kill('SIGTERM');
    } else startServer();
  }, 100);
}

await build({ primeCompileCache: false });
startServer();

// esbuild's incremental contexts notice source changes precisely; the full build then writes
// the manifest. Locales and content are watched directly.
const pages = (await readdir(join(ROOT, 'client', 'pages'))).filter((f) => f.endsWith('.tsx')).map((f) => `client/pages/${f}`);
const notify: esbuild.Plugin = {
  name: 'restart-on-change',
  setup(b) {
    let first = true;
    b.onEnd(() => {
      if (first) first = false;
      else restart('source changed');
    });
  },
};
const client = await esbuild.context({ ...clientBuildOptions(pages), write: false, plugins: [notify] });
const serverCtx = await esbuild.context({
  ...serverBuildOptions,
  write: false,
  plugins: [...(serverBuildOptions.plugins ?? []).filter((p) => p !== reactRouterProduction), notify],
});
await Promise.all([client.watch(), serverCtx.watch()]);
for (const dir of ['locales', 'content', 'public']) {
  watch(join(ROOT, dir), { recursive: true }, () => restart(`${dir}/ changed`));
}
process.on('SIGINT', () => {
  server?.kill('SIGTERM');
  process.exit(0);
});
