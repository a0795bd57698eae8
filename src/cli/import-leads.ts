import { INestApplicationContext } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { SingleBar } from 'cli-progress';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { StartLeadImport } from '../lead-imports/commands/start-lead-import';
import { asUtf8, decoderFor } from '../lead-imports/import-charset';
import { ImportFormat } from '../lead-imports/lead-import.events';
import { LeadImportWorker } from '../lead-imports/lead-import-worker';
import { importView } from '../lead-imports/lead-imports.projection';
import { LeadImportsQueries } from '../lead-imports/lead-imports.queries';
import { CliUsageError } from './usage-error';

const FORMATS: Record<string, ImportFormat> = { '.csv': 'csv', '.ndjson': 'ndjson', '.jsonl': 'ndjson' };

/** Counts the file's lines, for the progress bar's end: the rows, give or take the header and blank lines. */
async function lineCount(file: string): Promise<number> {
  let lines = 0;
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) for (const byte of chunk) if (byte === 10) lines++;
  return lines;
}

export interface LeadsFile {
  organisationId: number;
  campaignId: number;
  file: string;
  allowDuplicate: boolean;
  /** The file's charset (UTF-8 when not given). */
  charset?: string;
}

/** Imports a file's leads as the import route does (docs/imports.md), with a progress bar; answers the import's summary. */
export async function importLeads(app: INestApplicationContext, { organisationId, campaignId, file, allowDuplicate, charset }: LeadsFile) {
  const format = FORMATS[extname(file).toLowerCase()];
  if (!format) throw new CliUsageError('the file must end in .csv, .ndjson or .jsonl');
  if (!(await stat(file).catch(() => null))?.isFile()) throw new CliUsageError(`${file} is not a readable file`);
  const decoder = decoderFor(charset);
  if (!decoder) throw new CliUsageError(`--charset ${charset} is not a charset this service can read`);
  const importId = await app
    .get(CommandBus)
    .execute<StartLeadImport, number>(new StartLeadImport(organisationId, campaignId, format, allowDuplicate, asUtf8(createReadStream(file), decoder)));
  const bar = new SingleBar({
    format: 'Importing [{bar}] {percentage}% | {value}/{total} rows | ETA {eta_formatted}',
    stream: process.stderr,
    hideCursor: true,
    // Shown in logs too (a container's, CI's), a line every few seconds.
    noTTYOutput: true,
    notTTYSchedule: 5000,
  });
  bar.start(await lineCount(file), 0);
  const ran = await app.get(LeadImportWorker).runHere(importId, (rowsDone) => bar.update(rowsDone));
  bar.stop();
  const summary = await app.get(LeadImportsQueries).owned(organisationId, importId);
  // The route's record has no field for why an import failed; the CLI's summary says it.
  const reason = summary!.reason ? { reason: summary!.reason } : {};
  return { ...importView(summary!), ...reason, ...(ran ? {} : { note: 'another process is making this import' }) };
}
