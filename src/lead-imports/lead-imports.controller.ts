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
import { LeadImportListQuery, LeadImportQuery } from './lead-import.dto';
import { LeadImportsProjection, importView } from './lead-imports.projection';
import { LeadImportsQueries } from './lead-imports.queries';

/** docs/imports.md: leads in bulk from a CSV or NDJSON body, and the imports' progress. */
@UserApi()
export class LeadImportsController {
  constructor(
    private readonly requests: ImportRequests,
    private readonly imports: LeadImportsQueries,
    private readonly read: LeadImportsProjection,
    private readonly config: AppConfig,
  ) {}

  @Permit('leads:write')
  @Post('campaigns/:id/leads/import')
  @HttpCode(202)
  start(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Query(new AppValidationPipe()) query: LeadImportQuery,
    @Req() req: FastifyRequest,
    @Exchange() exchange: HttpExchange,
  ) {
    const campaignId = positiveId(id);
    const check = () => {
      if (campaignId === null) throw DomainError.notFound('Campaign');
    };
    const allowDuplicate = query.allow_dupplicate === 'true';
    return this.requests.start(req, exchange, { organisationId: user.organisationId, campaignId, allowDuplicate, formats: ['csv', 'ndjson'], check });
  }

  @Permit('read')
  @Get('lead-imports/:id')
  async get(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string) {
    const importId = positiveId(id);
    const found = importId === null ? null : await this.imports.owned(user.organisationId, importId);
    if (!found) throw DomainError.notFound('Import');
    return importView(found);
  }

  /** Newest first. */
  @Permit('read')
  @Get('lead-imports')
  list(@CurrentUser() user: AuthenticatedUser, @Query(new AppValidationPipe()) query: LeadImportListQuery, @Req() req: FastifyRequest) {
    return pagedList(this.read.imports, { user_id: user.organisationId, list: 'leads' }, [['id', 'desc']], query, req, this.config.publicUrl, importView);
  }
}
