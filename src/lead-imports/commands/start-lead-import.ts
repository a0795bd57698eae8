import { HttpException } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Inject } from '@nestjs/common';
import { Readable } from 'node:stream';
import { CampaignsQueries } from '../../campaigns/campaigns.queries';
import { ImportSettings } from '../import-settings';
import { CommandRunner } from '../../infrastructure/event-sourcing/command-runner';
import { EVENT_STORE, EventStore } from '../../shared/ports/event-store.port';
import { ProjectionRunner } from '../../infrastructure/projections/projection-runner';
import { DomainError } from '../../shared/domain-error';
import { ImportSpool, ImportTooLarge } from '../import-spool';
import { peekCsvHeader } from '../csv-header';
import { LeadImportWorker } from '../lead-import-worker';
import { LeadImportCommand, leadImportDecider } from '../lead-import.decider';
import { ImportFormat, UPLOAD_CUT_SHORT, leadImportStream } from '../lead-import.events';

export const NO_PHONE_COLUMN = 'The phone_number column is required.';

/**
 * An import asked for (docs/imports.md): its body is stored whole before it counts as uploaded.
 * `campaignId` null: the rows are numbers for the user's do-not-call list.
 */
export class StartLeadImport {
  constructor(
    readonly organisationId: number,
    readonly campaignId: number | null,
    readonly format: ImportFormat,
    readonly allowDuplicate: boolean,
    readonly body: Readable,
  ) {}
}

@CommandHandler(StartLeadImport)
export class StartLeadImportHandler implements ICommandHandler<StartLeadImport, number> {
  constructor(
    private readonly runner: CommandRunner,
    private readonly campaigns: CampaignsQueries,
    private readonly spool: ImportSpool,
    private readonly projections: ProjectionRunner,
    private readonly settings: ImportSettings,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly worker: LeadImportWorker,
  ) {}

  /** Answers the import's id once its body is stored and the import readable. */
  async execute({ organisationId, campaignId, format, allowDuplicate, body: sent }: StartLeadImport): Promise<number> {
    let body = sent;
    if (campaignId !== null && !(await this.campaigns.owned(organisationId, campaignId))) {
      body.resume();
      throw DomainError.notFound('Campaign');
    }
    if (format === 'csv') {
      const peeked = await peekCsvHeader(body);
      body = peeked.body;
      if (peeked.header && !peeked.header.includes('phone_number')) {
        body.resume();
        throw DomainError.validation('phone_number', NO_PHONE_COLUMN, NO_PHONE_COLUMN);
      }
    }
    const importId = await this.events.nextId('lead_import');
    // Held from before the import exists until its body is stored or refused: another instance
    // (or this one after a restart) ends an import whose upload's holder died.
    const release = await this.worker.holdUpload(importId);
    try {
      return await this.upload(importId, organisationId, campaignId, format, allowDuplicate, body);
    } finally {
      await release();
    }
  }

  private async upload(
    importId: number,
    organisationId: number,
    campaignId: number | null,
    format: ImportFormat,
    allowDuplicate: boolean,
    body: Readable,
  ): Promise<number> {
    const run = (command: LeadImportCommand) => this.runner.run(leadImportStream(importId), leadImportDecider, command);
    await run({ type: 'StartImport', importId, organisationId, campaignId, format, allowDuplicate });
    // Rows are made as the body arrives: the worker follows the file while it is stored.
    const stored = this.spool.store(importId, format, body, this.settings.maxBytes);
    this.worker.start(importId);
    let bytes: number;
    try {
      bytes = await stored;
    } catch (error) {
      const reason = error instanceof ImportTooLarge ? error.message : UPLOAD_CUT_SHORT;
      const { position } = await run({ type: 'FinishImport', importId, status: 'failed', reason });
      await this.projections.settle(position);
      if (error instanceof ImportTooLarge) throw new HttpException({ message: error.message }, 413);
      throw error;
    }
    const { position } = await run({ type: 'RecordUpload', importId, bytes }).catch((error: Error) => {
      // Not said uploaded, so never to be: the rows made from it wait no longer (the import ends as cut short).
      this.spool.abandon(importId, error);
      throw error;
    });
    this.spool.uploaded(importId);
    // Read after the body is said stored: an import that ended while it arrived (its processor then
    // left the file to this upload) keeps nothing of it.
    if ((await this.runner.load(leadImportStream(importId), leadImportDecider)).state.status !== 'running') await this.spool.remove(importId, format);
    // Unless its rows are being made already (a worker that looked too early has given up).
    else this.worker.start(importId);
    await this.projections.settle(position);
    return importId;
  }
}
