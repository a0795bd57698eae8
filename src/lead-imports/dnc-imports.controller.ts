import { Permit } from '../access/permissions';
import { Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AuthenticatedUser } from '../access/access-token-verifier';
import { CurrentUser, UserApi } from '../access/user-api.decorator';
import { AppConfig } from '../infrastructure/config/app-config';
import { pagedList } from '../shared/http/paged-list';
import { Exchange, HttpExchange } from '../idempotency/idempotent-requests';
import { DomainError } from '../shared/domain-error';
import { AppValidationPipe } from '../shared/validation/validation.pipe';
import { ImportRequests, positiveId } from './import-requests';
import { LeadImportListQuery } from './lead-import.dto';
import { LeadImportsProjection, dncImportView } from './lead-imports.projection';
import { LeadImportsQueries } from './lead-imports.queries';

/** docs/imports.md: numbers in bulk for the user's do-not-call list, from a CSV or a plain-text body, and the imports' progress. */
@UserApi()
export class DncImportsController {
  constructor(
    private readonly requests: ImportRequests,
    private readonly imports: LeadImportsQueries,
    private readonly read: LeadImportsProjection,
    private readonly config: AppConfig,
  ) {}

  @Permit('dnc:write')
  @Post('dnc/import')
  @HttpCode(202)
  start(@CurrentUser() user: AuthenticatedUser, @Req() req: FastifyRequest, @Exchange() exchange: HttpExchange) {
    return this.requests.start(req, exchange, { organisationId: user.organisationId, campaignId: null, allowDuplicate: true, formats: ['csv', 'text'] });
  }

  @Permit('read')
  @Get('dnc-imports/:id')
  async get(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string) {
    const importId = positiveId(id);
    const found = importId === null ? null : await this.imports.owned(user.organisationId, importId, 'do_not_call');
    if (!found) throw DomainError.notFound('Import');
    return dncImportView(found);
  }

  /** Newest first. */
  @Permit('read')
  @Get('dnc-imports')
  list(@CurrentUser() user: AuthenticatedUser, @Query(new AppValidationPipe()) query: LeadImportListQuery, @Req() req: FastifyRequest) {
    return pagedList(
      this.read.imports,
      { user_id: user.organisationId, list: 'do_not_call' },
      [['id', 'desc']],
      query,
      req,
      this.config.publicUrl,
      dncImportView,
    );
  }
}
