import { resolve } from 'node:path';
import { parseDataKeys } from '../sealing/data-keys';
import { MasterKey } from '../../shared/sealing/master-keys';
import { ConfigError } from '../../shared/config-error';
import { EnvReader } from './env-reader';

export type EventStoreKind = 'embedded' | 'eventstoredb';
export type ReadStoreKind = 'embedded' | 'mongodb';

/**
 * The service's own settings, read once from the environment at start (docs/configuration.md);
 * each feature reads its own (`DialingSettings`, `WebhookSettings`… and the voice runtime's).
 */
export class AppConfig {
  constructor(
    readonly port: number,
    readonly host: string,
    readonly dataDir: string,
    readonly eventStore: EventStoreKind,
    readonly eventStoreDbUrl: string | undefined,
    readonly readStore: ReadStoreKind,
    readonly mongodbUrl: string | undefined,
    readonly allowPrivateTargets: boolean,
    readonly rateLimitPerMinute: number,
    readonly readYourWritesTimeoutMs: number,
    readonly logLevel: 'error' | 'warn' | 'log' | 'debug' | 'silent',
    readonly publicUrl: string,
    /** Bearer token `GET /metrics` asks for; null: none asked. */
    readonly metricsToken: string | null = null,
    /** Readable log lines (pino-pretty) instead of JSON. */
    readonly logPretty = false,
    /** How long an instance's hold on a piece of background work lasts unless renewed (see WorkLeases). */
    readonly workLeaseTtlMs = 10_000,
    /** docs/privacy.md: DATA_KEYS, the first current; none: single-node mode keeps its own in DATA_DIR. */
    readonly dataKeys: MasterKey[] = [],
  ) {}
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

  const config = new AppConfig(
    port,
    env.HOST || '0.0.0.0',
    resolve(env.DATA_DIR || './data'),
    eventStore,
    url('EVENTSTOREDB_URL', ['esdb:', 'esdb+discover:'], eventStore === 'eventstoredb', 'when EVENT_STORE=eventstoredb'),
    readStore,
    url('MONGODB_URL', ['mongodb:', 'mongodb+srv:'], readStore === 'mongodb', 'when READ_STORE=mongodb'),
    bool('ALLOW_PRIVATE_TARGETS', false),
    int('RATE_LIMIT_PER_MINUTE', 600, 1, 10_000_000),
    int('READ_YOUR_WRITES_TIMEOUT_MS', 5000, 0, 60_000),
    oneOf('LOG_LEVEL', 'log', ['error', 'warn', 'log', 'debug', 'silent'] as const),
    env.PUBLIC_URL || `http://localhost:${port}`,
    env.METRICS_TOKEN || null,
    bool('LOG_PRETTY', process.stdout.isTTY === true),
    int('WORK_LEASE_TTL_MS', 10_000, 1000, 600_000),
    env.DATA_KEYS ? parseDataKeys(env.DATA_KEYS, problems) : [],
  );
  if (readStore === 'mongodb' && !env.DATA_KEYS) problems.push('DATA_KEYS is required when READ_STORE=mongodb (every instance must hold the same keys)');
  return config;
}

/** The service's own settings alone (the features' are read by `loadServiceConfig`); every problem at once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const read = new EnvReader(env);
  const config = readAppConfig(read);
  if (read.problems.length) throw new ConfigError(read.problems);
  return config;
}
