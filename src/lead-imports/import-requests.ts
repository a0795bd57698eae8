import { HttpException, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { HttpExchange, IdempotentRequests } from '../idempotency/idempotent-requests';
import { StartLeadImport } from './commands/start-lead-import';
import { importFormat } from './import-body-parser';
import { asUtf8, charsetOf } from './import-charset';
import { ImportFormat } from './lead-import.events';

export const positiveId = (raw: string) => (/^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : null);

const TYPES: Record<ImportFormat, string> = { csv: 'text/csv', ndjson: 'application/x-ndjson', text: 'text/plain' };

/** What an import is made into: a campaign's leads, or (campaign null) the user's do-not-call list. */
export interface ImportTarget {
  organisationId: number;
  campaignId: number | null;
  allowDuplicate: boolean;
  /** The formats the route takes. */
  formats: ImportFormat[];
  /** Throws the route's own refusal (a campaign not found) once the body's type is known good. */
  check?: () => void;
}

/** An import asked for over HTTP (docs/imports.md): the body's type and charset, its `Idempotency-Key`, then the import. */
@Injectable()
export class ImportRequests {
  constructor(
    private readonly commands: CommandBus,
    private readonly idempotent: IdempotentRequests,
  ) {}

  async start(req: FastifyRequest, exchange: HttpExchange, target: ImportTarget) {
    const body = req.body instanceof Readable ? req.body : null;
    const format = importFormat(req.headers['content-type']);
    const charset = charsetOf(req.headers['content-type']);
    try {
      if (!format || !target.formats.includes(format) || !body) {
        const types = target.formats.map((f) => TYPES[f]);
        throw new HttpException({ message: `Content-Type header must be ${types.slice(0, -1).join(', ')} or ${types[types.length - 1]}.` }, 415);
      }
      if (!charset) throw new HttpException({ message: 'The charset of the Content-Type header is not one this service can read.' }, 415);
      target.check?.();
      // The same key with another file is another request (docs/api.md), told apart by the file's bytes.
      return await this.idempotent.answerStreamed(exchange, 202, body, async (file) => {
        const importId = await this.commands.execute<StartLeadImport, number>(
          new StartLeadImport(target.organisationId, target.campaignId, format, target.allowDuplicate, asUtf8(file, charset)),
        );
        return { message: 'Import started.', data: { id: importId, status: 'running' } };
      });
    } finally {
      // A refused or repeated request's body is read to its end, unused: the connection stays usable.
      body?.resume();
    }
  }
}
