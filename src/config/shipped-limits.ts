/**
 * The environment variable that gives the bundled peers ws's limits as shipped (maxPayload 100 MiB,
 * maxFragments 16,384) instead of the catalogue's (bundled/ws-echo.ts): the drivers set it for the
 * robustness profile, whose cases are about those limits (a peer with them off is the flawed one:
 * 17.2.5 and 18.3.6, GHSA-96hv-2xvq-fx4p).
 */
export const SHIPPED_LIMITS_ENV = 'WSGATE_WS_LIMITS';
