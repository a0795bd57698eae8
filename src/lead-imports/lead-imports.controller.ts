import { Get, HttpCode, HttpException, Param, Post, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { AuthenticatedUser } from '../infrastructure/auth/access-token-verifier';
import { CurrentUser, UserApi } from '../infrastructure/auth/user-api.decorator';
import { AppConfig } from '../infrastructure/config/app-config';
import { pagedList } from '../infrastructure/http/paged-list';
import { Exchange, HttpExchange, IdempotentRequests } from '../infrastructure/idempotency/idempotent-requests';
import { DomainError } from '../shared/domain-error';
import { AppValidationPipe } from '../shared/validation/validation.pipe';
import { StartLeadImport } from './commands/start-lead-import';
import { importFormat } from './import-body-parser';
import { asUtf8, charsetOf } from './import-charset';
import { LeadImportListQuery, LeadImportQuery } from './lead-import.dto';
import { LeadImportsProjection, importView } from './lead-imports.projection';
import { LeadImportsQueries } from './lead-imports.queries';

const positiveId = (raw: string) => (/^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : null);

/** Contract §15: leads in bulk from a CSV or NDJSON body, and the imports' progress. */
@UserApi()
export class LeadImportsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly imports: LeadImportsQueries,
    private readonly read: LeadImportsProjection,
    private readonly idempotent: IdempotentRequests,
    private readonly config: AppConfig,
  ) {}

  @Post('campaigns/:id/leads/import')
  @HttpCode(202)
  async start(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Query(new AppValidationPipe()) query: LeadImportQuery,
    @Req() req: FastifyRequest,
    @Exchange() exchange: HttpExchange,
  ) {
    const body = req.body instanceof Readable ? req.body : null;
    const format = importFormat(req.headers['content-type']);
    const charset = charsetOf(req.headers['content-type']);
    try {
      if (!format || !body) throw new HttpException({ message: 'Content-Type header must be text/csv or application/x-ndjson.' }, 415);
      if (!charset) throw new HttpException({ message: 'The charset of the Content-Type header is not one this service can read.' }, 415);
      const campaignId = positiveId(id);
      if (campaignId === null) throw DomainError.notFound('Campaign');
      // The same key with another file is another request (contract §12), told apart by the file's bytes.
      return await this.idempotent.answerStreamed(exchange, 202, body, async (file) => {
        const importId = await this.commands.execute<StartLeadImport, number>(
          new StartLeadImport(user.id, campaignId, format, query.allow_dupplicate === 'true', asUtf8(file, charset)),
        );
        return { message: 'Import started.', data: { id: importId, status: 'running' } };
      });
    } finally {
      // A refused or repeated request's body is read to its end, unused: the connection stays usable.
      body?.resume();
    }
  }

  @Get('lead-imports/:id')
  async get(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string) {
    const importId = positiveId(id);
    const found = importId === null ? null : await this.imports.owned(user.id, importId);
    if (!found) throw DomainError.notFound('Import');
    return importView(found);
  }

  /** Newest first. */
  @Get('lead-imports')
  list(@CurrentUser() user: AuthenticatedUser, @Query(new AppValidationPipe()) query: LeadImportListQuery, @Req() req: FastifyRequest) {
    return pagedList(this.read.imports, { user_id: user.id }, [['id', 'desc']], query, req, this.config.publicUrl, importView);
  }
}
