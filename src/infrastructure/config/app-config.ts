import { resolve } from 'node:path';
import { MasterKey, parseDataKeys } from '../sealing/data-keys';
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
    readonly dialerUrl: string | undefined,
    readonly telephonySecret: string,
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

/** The simulated dialer's outcomes and their odds; each is drawn from a seeded generator. */
export type SimulatedOutcome = 'human' | 'machine' | 'busy' | 'no-answer' | 'failed' | 'silence';
export const SIMULATED_OUTCOMES: readonly SimulatedOutcome[] = ['human', 'machine', 'busy', 'no-answer', 'failed', 'silence'];

export interface DialerSettings {
  /** Milliseconds between scheduler passes when nothing nudges it sooner. */
  intervalMs: number;
  simulatedSeed: number;
  simulatedOdds: Record<SimulatedOutcome, number>;
  /** Seconds each simulated step (ringing, talking) takes; 0 answers at once. */
  simulatedStepSeconds: number;
  /**
   * Seconds after which a dial never confirmed (its process died mid-dial) is sent again under
   * the same call id: longer than the dialer's own 10 s timeout, so a live dial is never resent.
   */
  resendAfterSeconds: number;
  /** `DIALER=http`: the most dial requests the provider takes open at once; null: no limit of its own. */
  maxOpenDials: number | null;
}

export const DEFAULT_DIALER_SETTINGS: DialerSettings = {
  intervalMs: 1000,
  simulatedSeed: 1,
  simulatedOdds: { human: 0.5, machine: 0.1, busy: 0.1, 'no-answer': 0.25, failed: 0.05, silence: 0 },
  simulatedStepSeconds: 2,
  resendAfterSeconds: 30,
  maxOpenDials: null,
};

/** Signs the simulated dialer's callbacks; refused with the real dialer. */
export const DEFAULT_TELEPHONY_SECRET = 'change-me-telephony-secret';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

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
  const telephonySecret = env.TELEPHONY_SECRET || DEFAULT_TELEPHONY_SECRET;
  // Real calls are signed with it: a secret anyone can read in this repository signs nothing.
  if (dialer === 'http' && telephonySecret === DEFAULT_TELEPHONY_SECRET) problems.push('TELEPHONY_SECRET must be set to a secret of your own when DIALER=http');

  const retryDelaysRaw = env.WEBHOOK_RETRY_DELAYS ?? '1,5,30,120';
  const webhookRetryDelays = retryDelaysRaw.split(',').map((s) => Number(s.trim()));
  if (webhookRetryDelays.some((n) => !Number.isFinite(n) || n < 0)) {
    problems.push(`WEBHOOK_RETRY_DELAYS must be a comma-separated list of seconds (got "${retryDelaysRaw}")`);
  }

  const oddsRaw = env.SIMULATED_DIALER_ODDS;
  const simulatedOdds = { ...Object.fromEntries(SIMULATED_OUTCOMES.map((o) => [o, 0])) } as Record<SimulatedOutcome, number>;
  if (oddsRaw) {
    for (const part of oddsRaw.split(',')) {
      const [name, weight] = part.split(':').map((s) => s.trim());
      if (!SIMULATED_OUTCOMES.includes(name as SimulatedOutcome) || !(Number(weight) >= 0)) {
        problems.push(`SIMULATED_DIALER_ODDS must list ${SIMULATED_OUTCOMES.join(', ')} as name:weight pairs (got "${oddsRaw}")`);
        break;
      }
      simulatedOdds[name as SimulatedOutcome] = Number(weight);
    }
    if (!Object.values(simulatedOdds).some((w) => w > 0)) problems.push('SIMULATED_DIALER_ODDS must give some outcome a weight above 0');
  }
  const stepRaw = env.SIMULATED_CALL_STEP_SECONDS;
  const simulatedStepSeconds = stepRaw === undefined || stepRaw === '' ? DEFAULT_DIALER_SETTINGS.simulatedStepSeconds : Number(stepRaw);
  if (!(simulatedStepSeconds >= 0 && simulatedStepSeconds <= 3600))
    problems.push(`SIMULATED_CALL_STEP_SECONDS must be a number of seconds from 0 to 3600 (got "${stepRaw}")`);

  const config = new AppConfig(
    port,
    env.HOST || '0.0.0.0',
    resolve(env.DATA_DIR || './data'),
    eventStore,
    url('EVENTSTOREDB_URL', ['esdb:', 'esdb+discover:'], eventStore === 'eventstoredb', 'when EVENT_STORE=eventstoredb'),
    readStore,
    url('MONGODB_URL', ['mongodb:', 'mongodb+srv:'], readStore === 'mongodb', 'when READ_STORE=mongodb'),
    dialer,
    url('DIALER_URL', ['http:', 'https:'], dialer === 'http', 'when DIALER=http'),
    telephonySecret,
    bool('ALLOW_PRIVATE_TARGETS', false),
    int('RATE_LIMIT_PER_MINUTE', 600, 1, 10_000_000),
    int('TOOL_PLAN_LIMIT', 10, 0, 1_000_000),
    webhookRetryDelays,
    int('READ_YOUR_WRITES_TIMEOUT_MS', 5000, 0, 60_000),
    oneOf('LOG_LEVEL', 'log', ['error', 'warn', 'log', 'debug', 'silent'] as const),
    env.PUBLIC_URL || `http://localhost:${port}`,
    {
      intervalMs: int('DIAL_INTERVAL_MS', DEFAULT_DIALER_SETTINGS.intervalMs, 10, 3_600_000),
      simulatedSeed: int('SIMULATED_DIALER_SEED', DEFAULT_DIALER_SETTINGS.simulatedSeed, 0, 2 ** 31 - 1),
      simulatedOdds: oddsRaw ? simulatedOdds : DEFAULT_DIALER_SETTINGS.simulatedOdds,
      simulatedStepSeconds,
      resendAfterSeconds: int('DIAL_RESEND_AFTER_SECONDS', DEFAULT_DIALER_SETTINGS.resendAfterSeconds, 11, 3600),
      maxOpenDials: env.DIALER_MAX_OPEN_REQUESTS ? int('DIALER_MAX_OPEN_REQUESTS', 0, 1, 100_000) : null,
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
