// The built-in API speaks Bearer; browsers call it with the session cookie. The browser never
// receives a token: the session's row holds it (a fresh one in an answer — profile, avatar,
// password — was already put there by the API) and it is removed from the JSON.
import type { RequestHandler } from 'express';

/** After the session middleware (session-cookie.ts): a request with a session and no Authorization gets the session's token. */
export function bridgeSessionToBearer(): RequestHandler {
  return (req, res, next) => {
    const session = res.locals.session;
    if (!session || req.headers.authorization) return next();
    req.headers.authorization = `Bearer ${session.token}`;
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      if (body && typeof body === 'object' && typeof (body as { token?: unknown }).token === 'string') {
        const { token: _kept, ...rest } = body as { token: string };
        return json(rest);
      }
      return json(body);
    };
    next();
  };
}
