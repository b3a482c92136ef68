// The per-request cost of the Content-Security-Policy (docs/decisions/026): 100,000 calls of
// helmet's CSP middleware alone, and of the chain every request meets first (request-context,
// then helmet with every header), on one reused request/response pair, best and median of 5
// rounds. Run: node scripts/bench/csp-middleware.ts
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import helmet from 'helmet';
import { CONSENT_COOKIE, serializeConsent } from '../../shared/consent.ts';
import { ANALYTICS_HOSTS, analyticsAllowed } from '../../server/http/consent.ts';
import { contentSecurityPolicy } from '../../server/http/csp.ts';
import { requestContext } from '../../server/http/request-context.ts';
import { createLogger } from '../../server/base/logger.ts';

const CALLS = 100_000;
const ROUNDS = 5;

type Handler = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

const req = new IncomingMessage(new Socket()) as IncomingMessage & { cookies?: unknown };
req.method = 'GET';
req.url = '/';
// A visitor who consented, on a site with analytics ids: the widest policy.
req.headers = { cookie: `${CONSENT_COOKIE}=${encodeURIComponent(serializeConsent({ analytics: true }))}; other=1` };
const res = Object.assign(new ServerResponse(req), { locals: {} as Record<string, unknown> });

const csp = contentSecurityPolicy({
  upgradeInsecureRequests: true,
  analyticsHosts: ANALYTICS_HOSTS,
  mediaHosts: ['res.cloudinary.com'],
  cmsOrigin: 'https://cms.example.com',
});
const policyOnly = helmet.contentSecurityPolicy(csp) as Handler;
const context = requestContext({
  logger: createLogger('warn'),
  analyticsAllowed: (consent) => analyticsAllowed({ ga: 'G-BENCH1' }, consent),
  draining: () => false,
  trustedPeer: () => false,
}) as unknown as Handler;
const headers = helmet({
  contentSecurityPolicy: csp,
  referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  strictTransportSecurity: { maxAge: 31536000, includeSubDomains: true },
  crossOriginEmbedderPolicy: false,
}) as Handler;

function fail(error?: unknown) {
  if (error) throw error;
}

function measure(name: string, once: () => void) {
  for (let i = 0; i < 20_000; i++) once();
  const perCall: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < CALLS; i++) once();
    perCall.push(Number(process.hrtime.bigint() - started) / CALLS);
  }
  perCall.sort((a, b) => a - b);
  console.log(`${name}: best ${perCall[0]!.toFixed(0)} ns, median ${perCall[ROUNDS >> 1]!.toFixed(0)} ns per call`);
}

res.locals.cspNonce = 'bm9uY2Utb25lYWJjZGVmZ2g=';
res.locals.analytics = true;
measure("helmet's CSP middleware alone", () => policyOnly(req, res, fail));
measure('request-context + helmet (every header)', () => {
  req.cookies = undefined;
  context(req, res, () => headers(req, res, fail));
});
console.log(String(res.getHeader('content-security-policy')));
