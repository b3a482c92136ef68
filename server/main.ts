// The server process: configuration, the app, listening, and a graceful stop. With
// WEB_CONCURRENCY > 1 this process is the primary of a node:cluster and forks the workers.
import cluster from 'node:cluster';
import module from 'node:module';
import { createApp } from './app.ts';
import { BrandError, loadBrand, type Brand } from './brand/brand.ts';
import { ConfigError, loadConfig, type Config } from './base/config.ts';
import { databaseFile, openDatabase } from './db/index.ts';
import { boundUrl, createHttpServer } from './http/server.ts';
import { createLogger, type Logger } from './base/logger.ts';

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

/** brand/, checked before anything starts (in the primary too: no workers dying one after another). */
function readBrand(): Brand {
  try {
    return loadBrand();
  } catch (error) {
    if (error instanceof BrandError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

async function serve(config: Config, logger: Logger) {
  const started = performance.now();
  const { app, close, drain, metrics } = await createApp({ config, logger, brand: readBrand() });
  // METRICS_PORT, when this process is the only one (a cluster's primary serves it otherwise).
  const metricsServer =
    metrics && config.METRICS_PORT !== undefined && !cluster.isWorker ? await listenForMetrics(config, logger, metrics.text) : null;
  const server = createHttpServer(app, {
    headersTimeoutSeconds: config.HTTP_HEADERS_TIMEOUT_SECONDS,
    requestTimeoutSeconds: config.HTTP_REQUEST_TIMEOUT_SECONDS,
    keepAliveTimeoutSeconds: config.HTTP_KEEP_ALIVE_TIMEOUT_SECONDS,
    maxConnections: config.HTTP_MAX_CONNECTIONS,
  });
  server.listen(config.PORT, config.HOST, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.PORT;
    const startupMs = Math.round(performance.now() - started);
    // The modules of a start are compiled by now: write the compile cache (turned on by the
    // build's entry, dist/server/main.js) for the next start, rather than only at exit. Before
    // the log line: the build primes the cache by waiting for it.
    module.flushCompileCache?.();
    // The address actually bound (HOST=127.0.0.1 says so, not "localhost").
    logger.info({ port, startupMs, worker: cluster.worker?.id }, `listening on ${boundUrl(address)}`);
  });
  server.on('error', (error) => {
    logger.fatal({ err: error }, 'server error');
    process.exit(1);
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, drainSeconds: config.SHUTDOWN_DRAIN_SECONDS }, 'shutting down: draining, then finishing in-flight requests');
    // Drain: answers say Connection: close and /readyz says 503, so that a load balancer moves
    // on and connections already queued are still served. Then stop accepting; idle keep-alive
    // connections close now, busy ones after their response.
    drain();
    metricsServer?.close();
    server.closeIdleConnections();
    setTimeout(() => {
      server.close(() => {
        void close().finally(() => {
          logger.info('stopped');
          process.exit(0);
        });
      });
      server.closeIdleConnections();
    }, config.SHUTDOWN_DRAIN_SECONDS * 1000);
    setTimeout(
      () => {
        logger.warn({ graceSeconds: config.SHUTDOWN_GRACE_SECONDS }, 'in-flight requests did not finish in time');
        server.closeAllConnections();
        void close().finally(() => process.exit(1));
      },
      (config.SHUTDOWN_DRAIN_SECONDS + config.SHUTDOWN_GRACE_SECONDS) * 1000,
    ).unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

/** /metrics on a listener of its own (METRICS_PORT, on HOST); prom-client loads only with metrics on. */
async function listenForMetrics(config: Config, logger: Logger, text: () => Promise<string>) {
  const { createMetricsServer } = await import('./metrics/serve.ts');
  const server = createMetricsServer({ token: config.METRICS_TOKEN, text, logger });
  server.listen(config.METRICS_PORT, config.HOST, () => logger.info(`metrics on ${boundUrl(server.address())}/metrics`));
  server.on('error', (error) => {
    logger.fatal({ err: error }, 'metrics server error');
    process.exit(1);
  });
  return server;
}

async function primary(config: Config, logger: Logger) {
  readBrand();
  // The workers' metrics, summed here: for METRICS_PORT, and for a worker asked on the site's port.
  if (config.METRICS_TOKEN !== undefined || config.METRICS_PORT !== undefined) {
    const { primaryMetrics } = await import('./metrics/serve.ts');
    const text = primaryMetrics(logger);
    if (config.METRICS_PORT !== undefined) await listenForMetrics(config, logger, text);
  }
  // Migrate once before the workers open the database, and give them one session secret.
  await (await openDatabase({ url: config.DATABASE_URL, file: databaseFile(config.DATA_DIR), poolMax: 1 })).close();
  if (config.sessionSecretGenerated) process.env.SESSION_SECRET = config.SESSION_SECRET;
  let stopping = false;
  const fork = () => cluster.fork();
  for (let i = 0; i < config.WEB_CONCURRENCY; i++) fork();
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    logger.error({ worker: worker.id, code, signal }, 'worker died: starting another');
    fork();
  });
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, workers: config.WEB_CONCURRENCY }, 'shutting down the workers');
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
    setTimeout(() => process.exit(1), (config.SHUTDOWN_DRAIN_SECONDS + config.SHUTDOWN_GRACE_SECONDS + 2) * 1000).unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

const config = readConfig();
const logger = createLogger(config.LOG_LEVEL);
(config.WEB_CONCURRENCY > 1 && cluster.isPrimary ? primary(config, logger) : serve(config, logger)).catch((error: unknown) => {
  logger.fatal({ err: error }, 'could not start');
  process.exit(1);
});
