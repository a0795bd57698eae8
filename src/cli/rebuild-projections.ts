import { INestApplicationContext } from '@nestjs/common';
import { SingleBar } from 'cli-progress';
import { EVENT_STORE, EventStore } from '../shared/ports/event-store.port';
import { ProjectionRunner } from '../infrastructure/projections/projection-runner';
import { CliUsageError } from './usage-error';
import { ServiceInstances } from '../infrastructure/instances/service-instances';
import { DomainError } from '../shared/domain-error';
import { DocumentStore, READ_STORE } from '../shared/ports/document-store.port';

/** Rebuilds read models with a progress bar; prints the events-per-second figure. */
export async function rebuildProjections(app: INestApplicationContext, only?: string) {
  const runner = app.get(ProjectionRunner);
  const names = runner.names();
  if (only && !names.includes(only)) throw new CliUsageError(`Unknown projection "${only}". Known: ${names.join(', ')}`);
  const chosen = only ? [only] : names;
  const [running] = app.get<DocumentStore>(READ_STORE).refillsBesideServices ? [] : await app.get(ServiceInstances).running();
  if (running) {
    throw new DomainError(
      'conflict',
      `A service is running on this store (process ${running.pid} on ${running.host}): stop every service before rebuilding the read models.`,
    );
  }
  const head = await app.get<EventStore>(EVENT_STORE).headPosition();
  const bar = new SingleBar({
    format: 'Rebuilding [{bar}] {percentage}% | position {value}/{total} | {rate} events/s | ETA {eta_formatted}',
    stream: process.stderr,
    hideCursor: true,
  });
  const started = process.hrtime.bigint();
  bar.start(head, 0, { rate: 0 });
  const events = await runner.rebuild(chosen, (position) => {
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    bar.update(Math.min(position, head), { rate: Math.round(position / Math.max(seconds, 1e-3)) });
  });
  bar.update(head);
  bar.stop();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { projections: chosen, events, seconds: Number(seconds.toFixed(3)), events_per_second: Math.round(events / Math.max(seconds, 1e-6)) };
}
