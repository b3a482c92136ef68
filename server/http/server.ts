// The HTTP server the app listens on, with limits for clients that are slow on purpose: half a
// header sent and then nothing (slowloris), a body trickled in, idle keep-alive connections,
// and too many connections at once. Node's defaults hold such a client for a minute or more.
import { createServer, type RequestListener, type Server } from 'node:http';

export type HttpLimits = {
  /** The whole header block must arrive within this time. */
  headersTimeoutSeconds: number;
  /** The whole request, body included, must arrive within this time. */
  requestTimeoutSeconds: number;
  /** An idle keep-alive connection is closed after this time. */
  keepAliveTimeoutSeconds: number;
  /** Connections beyond this number are refused (closed at once). */
  maxConnections: number;
};

export function createHttpServer(app: RequestListener, limits: HttpLimits): Server {
  const headersTimeout = limits.headersTimeoutSeconds * 1000;
  const server = createServer(
    {
      headersTimeout,
      requestTimeout: limits.requestTimeoutSeconds * 1000,
      // Node checks the two timeouts above on this interval (30 s by default): check often
      // enough that a timeout means what it says.
      connectionsCheckingInterval: Math.min(1000, headersTimeout),
    },
    app,
  );
  server.keepAliveTimeout = limits.keepAliveTimeoutSeconds * 1000;
  server.maxConnections = limits.maxConnections;
  return server;
}

/**
 * The URL of the address a server actually bound, for the start log: `http://127.0.0.1:3000`,
 * `http://[::1]:3000`, and for a wildcard (`0.0.0.0`, `::`) that address with "(every interface)".
 */
export function boundUrl(address: ReturnType<Server['address']>): string {
  if (address === null) return 'nowhere';
  if (typeof address === 'string') return address; // a pipe or socket path
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const wildcard = address.address === '0.0.0.0' || address.address === '::';
  return `http://${host}:${address.port}${wildcard ? ' (every interface)' : ''}`;
}
