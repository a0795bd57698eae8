import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { join } from 'node:path';
import { AppConfig } from '../../infrastructure/config/app-config';
import { ProjectionRunner } from '../../infrastructure/projections/projection-runner';
import { DocumentStore, READ_STORE } from '../../shared/ports/document-store.port';
import { sealEmbeddedEvents } from './seal-embedded-events';
import { sealEmbeddedPersonalValues } from './seal-embedded-personal';
import { maskEmbeddedRefusals } from './mask-embedded-refusals';
import { trimEmbeddedCsvMessages } from './trim-embedded-csv-messages';
import { sealEmbeddedListingReasons } from './seal-embedded-listing-reasons';
import { sealEmbeddedWebhookAnswers } from './seal-embedded-webhook-answers';
import { Sealer } from '../../shared/sealing/sealer';

export const SECRETS_SEALED = Symbol('SECRETS_SEALED');

/**
 * docs/privacy.md: an embedded store from before secrets (then personal values, then do-not-call
 * listings' reasons, then users' systems' answers about a person) were sealed, or before a runtime's refusals had their numbers masked (or imports' CSV messages cut), is upgraded in place before
 * anything reads it (a provider, made before the projections start); the read models holding
 * secrets changed version, so they are projected again from the sealed log, after which the
 * read store's files are compacted.
 */
export async function sealEarlierEmbeddedStore(config: AppConfig, sealer: Sealer): Promise<number> {
  if (config.eventStore !== 'embedded') return 0;
  const file = join(config.dataDir, 'events.db');
  const rewritten = sealEmbeddedEvents(file, (plain) => sealer.seal(plain));
  if (rewritten) new Logger('Keys').log(`Sealed the secrets of ${rewritten} events written by an earlier version`);
  const personal = await sealEmbeddedPersonalValues(file, sealer);
  if (personal) new Logger('Keys').log(`Sealed the personal values of ${personal} events written by an earlier version, under their people's keys`);
  const reasons = await sealEmbeddedListingReasons(file, sealer);
  if (reasons) new Logger('Keys').log(`Sealed the reasons of ${reasons} do-not-call listings written by an earlier version, under their people's keys`);
  const answers = await sealEmbeddedWebhookAnswers(file, sealer);
  if (answers) new Logger('Keys').log(`Sealed ${answers} webhook delivery events written by an earlier version, under their people's keys`);
  const masked = maskEmbeddedRefusals(file);
  if (masked) new Logger('Keys').log(`Masked the numbers named in ${masked} runtime refusals written by an earlier version`);
  const trimmed = trimEmbeddedCsvMessages(file);
  if (trimmed) new Logger('Keys').log(`Cut the CSV messages of ${trimmed} import events written by an earlier version to what the parser found and where`);
  return rewritten;
}

@Injectable()
export class CompactAfterSealing implements OnApplicationBootstrap {
  constructor(
    @Inject(SECRETS_SEALED) private readonly rewritten: number,
    @Inject(READ_STORE) private readonly reads: DocumentStore,
    private readonly projections: ProjectionRunner,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.rewritten || !this.reads.compact) return;
    // Not awaited: the projections catch up in their own bootstrap, which may come after this one.
    void this.projections.caughtUpAtStart
      .then(() => this.reads.compact!())
      .catch((error: Error) => new Logger('Keys').error(`Compacting the read store failed: ${error.message}`));
  }
}
