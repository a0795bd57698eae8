import { Inject, Injectable } from '@nestjs/common';
import { CsvError } from 'csv-parse';
import { CommandBus } from '@nestjs/cqrs';
import { AddToDoNotCall } from '../do-not-call/commands/add-to-do-not-call';
import { CommandRunner } from '../infrastructure/event-sourcing/command-runner';
import { EVENT_STORE, EventStore } from '../shared/ports/event-store.port';
import { ProjectionRunner } from '../infrastructure/projections/projection-runner';
import { CreateImportedLead } from '../leads/commands/create-imported-lead';
import { CreateLeadDto } from '../leads/lead.dto';
import { DUPLICATE_MESSAGE } from '../leads/lead.decider';
import { LeadsQueries } from '../leads/leads.queries';
import { DomainError } from '../shared/domain-error';
import { toE164 } from '../shared/phone';
import { yieldToIo } from '../shared/yield-to-io';
import { CheckedBodyPipe } from '../shared/validation/validation.pipe';
import { dncBatch } from './dnc-import-rows';
import { ImportRow, csvProblem, importRows } from './import-rows';
import { ImportSpool } from './import-spool';
import { LeadImportCommand, LeadImportState, leadImportDecider } from './lead-import.decider';
import { RowError, UPLOAD_CUT_SHORT, leadImportStream } from './lead-import.events';

/** Rows made at once: reserved together, their leads made concurrently, recorded done together. */
export const IMPORT_BATCH = 500;
/** Rows of a batch started together (see `makeLeads`). */
const ROWS_STARTED_TOGETHER = 50;

const checkLead = new CheckedBodyPipe(CreateLeadDto, { firstErrorAsMessage: true });

interface BatchOutcome {
  accepted: number;
  duplicates: number;
  invalid: number;
  errors: RowError[];
}

/**
 * Takes an import's stored body row by row (docs/imports.md): each batch is reserved with its lead
 * ids, its leads made as single creates are (the same rules, messages and duplicate checks, also
 * against imports and creates racing with it), then recorded done. After a crash the import goes
 * on from its last batch done, and the batch in hand is made again on the same ids: a lead made
 * already is found and counted, none is made twice. Progress is in the import's read model.
 */
@Injectable()
export class LeadImportProcessor {
  constructor(
    private readonly runner: CommandRunner,
    private readonly commands: CommandBus,
    private readonly projections: ProjectionRunner,
    private readonly spool: ImportSpool,
    private readonly leads: LeadsQueries,
    @Inject(EVENT_STORE) private readonly events: EventStore,
  ) {}

  /**
   * Makes every row not done yet; `onBatch` hears the rows done so far after each batch, and may
   * answer false to stop there (the service stopping): the import stays running, to go on later.
   * `uploadGone`: the process storing the body died, so an import not stored whole is ended.
   */
  async process(importId: number, onBatch?: (rowsDone: number) => boolean | void | Promise<boolean | void>, uploadGone = false): Promise<void> {
    const stream = leadImportStream(importId);
    // Asked before the state is read: a body stored meanwhile is said uploaded by then.
    const growing = this.spool.isGrowing(importId);
    let { state } = await this.runner.load(stream, leadImportDecider);
    if (state.status !== 'running') return;
    // Rows are made as the body arrives, when this process stores it; else once it is stored whole.
    if (!(state.uploaded || growing)) {
      if (uploadGone) await this.endCutShort(importId, state);
      return;
    }
    let batch: ImportRow[] = [];
    let unreadable: CsvError | null = null;
    try {
      for await (const row of importRows(state.format!, this.spool.read(importId, state.format!))) {
        if (row.row <= state.rowsDone) continue;
        batch.push(row);
        const last = state.reserved?.lastRow ?? 0;
        if (batch.length === IMPORT_BATCH || row.row === last) {
          state = await this.runBatch(importId, state, batch);
          if ((await onBatch?.(state.rowsDone)) === false) return;
          batch = [];
        }
      }
    } catch (error) {
      // An upload cut short or too large: the import was ended by its request already. A body that
      // cannot be read on (a CSV row csv-parse refuses) ends the import, after the rows before it;
      // anything else (a store out of reach) leaves it running, for the next try to go on with.
      if ((await this.runner.load(stream, leadImportDecider)).state.status !== 'running') return;
      if (!(error instanceof CsvError)) throw error;
      unreadable = error;
    }
    if (batch.length) state = await this.runBatch(importId, state, batch);
    await onBatch?.(state.rowsDone);
    const reason = unreadable && `The file cannot be read: ${csvProblem(unreadable)}`;
    const { position } = await this.run(importId, { type: 'FinishImport', importId, status: reason ? 'failed' : 'completed', reason });
    await this.projections.projected(position);
    // A body still arriving is removed by its upload once stored (see StartLeadImport).
    if (!this.spool.isGrowing(importId)) await this.spool.remove(importId, state.format!);
  }

  /**
   * Ends an import whose body stopped arriving with the process storing it, as an upload cut short
   * ends: the rows made are kept, and the batch in hand at the stop is made on the ids it had
   * (its rows were read whole from the part stored), so no row is made in part. Where the part
   * stored is not here (another host's `DATA_DIR`), that batch is not made.
   */
  private async endCutShort(importId: number, state: LeadImportState): Promise<void> {
    const reserved = state.reserved;
    if (reserved && (await this.spool.has(importId, state.format!))) {
      const batch: ImportRow[] = [];
      for await (const row of importRows(state.format!, this.spool.read(importId, state.format!))) {
        if (row.row > reserved.lastRow) break;
        if (row.row > state.rowsDone) batch.push(row);
      }
      await this.runBatch(importId, state, batch);
    }
    const { position } = await this.run(importId, { type: 'FinishImport', importId, status: 'failed', reason: UPLOAD_CUT_SHORT });
    await this.projections.projected(position);
    await this.spool.remove(importId, state.format!);
  }

  private async runBatch(importId: number, state: LeadImportState, rows: ImportRow[]): Promise<LeadImportState> {
    if (state.campaignId === null) return this.runListingBatch(importId, state, rows);
    const first = state.rowsDone + 1;
    const lastRow = rows[rows.length - 1].row;
    // The batch in hand at a crash is made again on the ids it had; a new one gets its own.
    const redo = state.reserved !== null;
    let leadIds = state.reserved?.leadIds;
    if (!leadIds) {
      leadIds = spread(rows, first, await Promise.all(rows.map(() => this.events.nextId('lead'))));
      await this.run(importId, { type: 'ReserveRows', importId, firstRow: first, lastRow, leadIds });
    }
    const ids = leadIds;
    const outcome = await this.makeLeads(state, rows, (row) => ids[row - first], redo);
    const { position, state: after } = await this.run(importId, { type: 'RecordRowsDone', importId, lastRow, ...outcome });
    // The leads and the progress are readable, and the dialer finds the leads, before the next batch.
    await this.projections.projected(position);
    return after;
  }

  /**
   * A batch of a do-not-call import: its numbers listed, then the batch recorded done. Listing is
   * idempotent, so a batch made again after a crash needs no reservation.
   */
  private async runListingBatch(importId: number, state: LeadImportState, rows: ImportRow[]): Promise<LeadImportState> {
    const { numbers, accepted, invalid, errors } = dncBatch(rows);
    if (numbers.length) await this.commands.execute(new AddToDoNotCall(state.organisationId!, numbers, null, 'import'));
    const lastRow = rows[rows.length - 1].row;
    const { position, state: after } = await this.run(importId, { type: 'RecordRowsDone', importId, lastRow, accepted, duplicates: 0, invalid, errors });
    await this.projections.projected(position);
    return after;
  }

  private async makeLeads(state: LeadImportState, rows: ImportRow[], idOf: (row: number) => number, redo: boolean): Promise<BatchOutcome> {
    const outcome: BatchOutcome = { accepted: 0, duplicates: 0, invalid: 0, errors: [] };
    const refused = (row: number, message: string) => {
      if (message === DUPLICATE_MESSAGE) outcome.duplicates++;
      else outcome.invalid++;
      outcome.errors.push({ row, message });
    };
    const bodies = rows.map((row) => {
      if ('unreadable' in row) return { row: row.row, unreadable: row.unreadable };
      const body: Record<string, unknown> = { ...row.body, campaign_id: state.campaignId, allow_dupplicate: state.allowDuplicate };
      return { row: row.row, body, e164: typeof body.phone_number === 'string' ? toE164(body.phone_number) : null };
    });
    // The leads stored before their numbers had reservation streams, for the batch at once.
    const numbers = [...new Set(bodies.flatMap((b) => ('e164' in b && b.e164 ? [b.e164] : [])))];
    const live = numbers.length ? await this.leads.liveWithNumbers(state.organisationId!, state.campaignId!, numbers) : new Map<string, number[]>();
    // A number twice in the batch: the first row takes it, the later ones are duplicates, as if
    // they had come one by one (the number's reservation decides against other batches and creates).
    const seen = new Set<string>();
    const makeOne = async (row: (typeof bodies)[number]): Promise<{ row: number; message: string | null }> => {
      if ('unreadable' in row) return { row: row.row, message: row.unreadable! };
      const { body, e164 } = row;
      if (e164 && !state.allowDuplicate) {
        if (seen.has(e164)) return { row: row.row, message: DUPLICATE_MESSAGE };
        seen.add(e164);
      }
      try {
        const imported = { leadId: idOf(row.row), mayExist: redo, live: (e164 && live.get(e164)) || [] };
        await this.commands.execute(new CreateImportedLead(state.organisationId!, await checkLead.transform(body), imported));
        return { row: row.row, message: null };
      } catch (error) {
        if (error instanceof DomainError) return { row: row.row, message: error.message };
        throw error;
      }
    };
    // Started a group at a time, other requests (calls in progress) served between groups: the
    // stores answer synchronously, so a whole batch started at once held the thread 40–150 ms.
    const making: Array<Promise<{ row: number; message: string | null }>> = [];
    for (const [i, row] of bodies.entries()) {
      if (i > 0 && i % ROWS_STARTED_TOGETHER === 0) await yieldToIo();
      const one = makeOne(row);
      // Awaited with the others below; a failure meanwhile is not an unhandled one.
      one.catch(() => undefined);
      making.push(one);
    }
    const made = await Promise.all(making);
    for (const { row, message } of made.sort((a, b) => a.row - b.row)) {
      if (message === null) outcome.accepted++;
      else refused(row, message);
    }
    return outcome;
  }

  private run(importId: number, command: LeadImportCommand) {
    return this.runner.run(leadImportStream(importId), leadImportDecider, command);
  }
}

/** Lead ids by row number from the batch's first row: rows are numbered without gaps in CSV, with gaps (blank lines) in NDJSON. */
function spread(rows: ImportRow[], first: number, ids: number[]): number[] {
  const last = rows[rows.length - 1].row;
  const out = new Array<number>(last - first + 1).fill(0);
  rows.forEach((row, i) => (out[row.row - first] = ids[i]));
  return out;
}
