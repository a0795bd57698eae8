import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { serveOpenApi } from './api-docs/openapi-document';
import { AppModule } from './app.module';
import { ServiceConfig } from './service-config';
import { closeConnectionsOnShutdown } from './infrastructure/http/close-connections-on-shutdown';
import { answerClientError } from './infrastructure/http/client-errors';
import { HttpErrorFilter } from './infrastructure/http/http-error.filter';
import { AppLogger } from './infrastructure/logging/app-logger';
import { createLog } from './infrastructure/logging/pino-log';
import { logRequests, requestId } from './infrastructure/logging/request-log';
import { BODY_LIMIT_BYTES, installJsonBodyParser } from './infrastructure/http/json-body-parser';
import { Clock } from './shared/clock';
import { IMPORT_ROUTES, installImportBodyParser } from './lead-imports/import-body-parser';
import { Metrics } from './infrastructure/metrics/metrics';
import { observeRequests } from './infrastructure/metrics/observe-requests';
import { installFormBodyParser } from './voice-runtimes/form-body-parser';
import { openRequestScopes } from './infrastructure/http/request-scopes';

/** How long, beyond a write's wait for its projection, answers still due may take at shutdown. */
const SHUTDOWN_GRACE_MS = 2000;

/** Builds the HTTP application on Fastify (chosen by measurement: see bench/README.md). */
export async function createApp(config: ServiceConfig, clock?: Clock, background = true): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    clientErrorHandler: answerClientError,
    // Ids of any length reach the routes (and their own 404s) instead of the router's bare 414.
    routerOptions: { maxParamLength: 2048 },
    // Requests still arriving on open connections while the service stops are answered (with
    // `Connection: close`), not refused with Fastify's bare 503.
    return503OnClosing: false,
    genReqId: requestId,
  });
  installJsonBodyParser(adapter.getInstance(), { notJsonRoutes: IMPORT_ROUTES });
  installImportBodyParser(adapter.getInstance());
  installFormBodyParser(adapter.getInstance(), config.runtime.formRoutes);
  closeConnectionsOnShutdown(adapter.getInstance(), config.readYourWritesTimeoutMs + SHUTDOWN_GRACE_MS);
  const log = createLog(config);
  logRequests(adapter.getInstance(), log);
  openRequestScopes(adapter.getInstance());
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot({ config, clock, background }), adapter, {
    logger: new AppLogger(log),
    bodyParser: false,
    abortOnError: false,
  });
  await config.runtime.install(app, config);
  app.useGlobalFilters(new HttpErrorFilter());
  serveOpenApi(app);
  observeRequests(adapter.getInstance(), app.get(Metrics));
  app.enableShutdownHooks();
  return app;
}
