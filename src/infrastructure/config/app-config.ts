import { resolve } from 'node:path';
import { parseDataKeys } from '../sealing/data-keys';
import { MasterKey } from '../../shared/sealing/sealer';
import { ConfigError } from '../../shared/config-error';
import { EnvReader } from './env-reader';

export type EventStoreKind = 'embedded' | 'eventstoredb';
export type ReadStoreKind = 'embedded' | 'mongodb';
export type DialerKind = 'simulated' | 'http' | 'vapi' | 'retell' | 'twilio';

/** Settings read once from the environment at start; see README "Configuration". */
export class AppConfig {
  constructor(
    readonly port: number,
    readonly host: string,
    readonly dataDir: string,
    readonly eventStore: EventStoreKind,
    readonly eventStoreDbUrl: string | undefined,
    readonly readStore: ReadStoreKind,
    readonly mongodbUrl: string | undefined,
    readonly dialer: DialerKind,
    readonly allowPrivateTargets: boolean,
    readonly rateLimitPerMinute: number,
    readonly toolPlanLimit: number,
    readonly webhookRetryDelays: number[],
    readonly readYourWritesTimeoutMs: number,
    readonly logLevel: 'error' | 'warn' | 'log' | 'debug' | 'silent',
    readonly publicUrl: string,
    readonly dialing: DialerSettings = DEFAULT_DIALER_SETTINGS,
    /** Bearer token `GET /metrics` asks for; null: none asked. */
    readonly metricsToken: string | null = null,
    /** Readable log lines (pino-pretty) instead of JSON. */
    readonly logPretty = false,
    /** docs/dialing.md: the quiet hours of users who set none, in the called party's time; null: no floor. */
    readonly defaultQuietHours: { start: string; end: string } | null = { start: '08:00', end: '21:00' },
    /** How long an instance's hold on a piece of background work lasts unless renewed (see WorkLeases). */
    readonly workLeaseTtlMs = 10_000,
    /** docs/imports.md: the largest lead import body taken. */
    readonly importMaxBytes = 512 * 1024 * 1024,
    /** docs/privacy.md: DATA_KEYS, the first current; none: single-node mode keeps its own in DATA_DIR. */
    readonly dataKeys: MasterKey[] = [],
  ) {}
}

export interface DialerSettings {
  /** Milliseconds between scheduler passes when nothing nudges it sooner. */
  intervalMs: number;
  /**
   * Seconds after which a dial never confirmed (its process died mid-dial) is sent again under
   * the same call id: longer than the dialer's own 10 s timeout, so a live dial is never resent.
   */
  resendAfterSeconds: number;
}

export const DEFAULT_DIALER_SETTINGS: DialerSettings = {
  intervalMs: 1000,
  resendAfterSeconds: 30,
};

/**
 * The service's own settings from the environment; problems are added to the reader's, for the
 * caller to report with those of the features' settings (src/service-config.ts).
 */
export function readAppConfig(read: EnvReader): AppConfig {
  const { env, problems } = read;
  const int = read.int.bind(read);
  const oneOf = read.oneOf.bind(read);
  const bool = read.bool.bind(read);
  const url = read.url.bind(read);

  const port = int('PORT', 3000, 0, 65535);
  const eventStore = oneOf('EVENT_STORE', 'embedded', ['embedded', 'eventstoredb'] as const);
  const readStore = oneOf('READ_STORE', 'embedded', ['embedded', 'mongodb'] as const);
  const dialer = oneOf('DIALER', 'simulated', ['simulated', 'http', 'vapi', 'retell', 'twilio'] as const);
  const retryDelaysRaw = env.WEBHOOK_RETRY_DELAYS ?? '1,5,30,120';
  const webhookRetryDelays = retryDelaysRaw.split(',').map((s) => Number(s.trim()));
  if (webhookRetryDelays.some((n) => !Number.isFinite(n) || n < 0)) {
    problems.push(`WEBHOOK_RETRY_DELAYS must be a comma-separated list of seconds (got "${retryDelaysRaw}")`);
  }

  const config = new AppConfig(
    port,
    env.HOST || '0.0.0.0',
    resolve(env.DATA_DIR || './data'),
    eventStore,
    url('EVENTSTOREDB_URL', ['esdb:', 'esdb+discover:'], eventStore === 'eventstoredb', 'when EVENT_STORE=eventstoredb'),
    readStore,
    url('MONGODB_URL', ['mongodb:', 'mongodb+srv:'], readStore === 'mongodb', 'when READ_STORE=mongodb'),
    dialer,
    bool('ALLOW_PRIVATE_TARGETS', false),
    int('RATE_LIMIT_PER_MINUTE', 600, 1, 10_000_000),
    int('TOOL_PLAN_LIMIT', 10, 0, 1_000_000),
    webhookRetryDelays,
    int('READ_YOUR_WRITES_TIMEOUT_MS', 5000, 0, 60_000),
    oneOf('LOG_LEVEL', 'log', ['error', 'warn', 'log', 'debug', 'silent'] as const),
    env.PUBLIC_URL || `http://localhost:${port}`,
    {
      intervalMs: int('DIAL_INTERVAL_MS', DEFAULT_DIALER_SETTINGS.intervalMs, 10, 3_600_000),
      resendAfterSeconds: int('DIAL_RESEND_AFTER_SECONDS', DEFAULT_DIALER_SETTINGS.resendAfterSeconds, 11, 3600),
    },
    env.METRICS_TOKEN || null,
    bool('LOG_PRETTY', process.stdout.isTTY === true),
    quietHours(env.DEFAULT_QUIET_HOURS),
    int('WORK_LEASE_TTL_MS', 10_000, 1000, 600_000),
    int('IMPORT_MAX_BYTES', 512 * 1024 * 1024, 1, Number.MAX_SAFE_INTEGER),
    env.DATA_KEYS ? parseDataKeys(env.DATA_KEYS, problems) : [],
  );
  if (readStore === 'mongodb' && !env.DATA_KEYS) problems.push('DATA_KEYS is required when READ_STORE=mongodb (every instance must hold the same keys)');
  return config;

  function quietHours(raw: string | undefined): { start: string; end: string } | null {
    if (raw === undefined || raw === '') return { start: '08:00', end: '21:00' };
    if (raw === 'none') return null;
    const match = /^(([01]\d|2[0-3]):[0-5]\d)-(([01]\d|2[0-3]):[0-5]\d|24:00)$/.exec(raw);
    if (!match || match[1] >= match[3]) {
      problems.push(`DEFAULT_QUIET_HOURS must be HH:MM-HH:MM (start before end) or none (got "${raw}")`);
      return null;
    }
    return { start: match[1], end: match[3] };
  }
}

/** The service's own settings alone (the features' are read by `loadServiceConfig`); every problem at once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const read = new EnvReader(env);
  const config = readAppConfig(read);
  if (read.problems.length) throw new ConfigError(read.problems);
  return config;
}
