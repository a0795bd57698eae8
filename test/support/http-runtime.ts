/**
 * The generic HTTP runtime (`DIALER=http`): its callback routes exist only then (docs/real-calls.md).
 * Suites that play the runtime's callbacks by hand start the service with it; its dial requests
 * go to `dialUrl` (by default a closed loopback port: a dial, if any, is refused).
 */
export const httpRuntimeEnv = (secret: string, dialUrl = 'http://127.0.0.1:9/dial') => ({ DIALER: 'http', DIALER_URL: dialUrl, TELEPHONY_SECRET: secret });
