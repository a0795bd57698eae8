import { Get, Inject, Query, Req } from '@nestjs/common';
import { Type } from 'class-transformer';
import type { FastifyRequest } from 'fastify';
import { AuthenticatedUser } from '../access/access-token-verifier';
import { Permit } from '../access/permissions';
import { CurrentUser, UserApi } from '../access/user-api.decorator';
import { AppConfig } from '../infrastructure/config/app-config';
import { listPage } from '../shared/http/paged-list';
import { PageQuery } from '../shared/http/page-query';
import { Between, Int, Iso8601, MaxLen, OneOf, Optional, Rules, Str } from '../shared/validation/rules';
import { AppValidationPipe } from '../shared/validation/validation.pipe';
import { AUDIT_TRAIL, AuditEntry, AuditTrail } from '../shared/ports/audit-trail.port';
import { AUDITED_EVENT_TYPES } from './audited-events';
import { withSecretsHidden } from '../shared/secrets';
import { EVENT_STORE, EventStore } from '../shared/ports/event-store.port';
import { Upcasters } from '../infrastructure/event-sourcing/upcasters';

export class AuditQuery extends PageQuery(50) {
  @Optional() @Rules(OneOf(['user', 'api_key', 'system'])) actor_type?: 'user' | 'api_key' | 'system';
  @Optional() @Type(() => Number) @Rules(Int(), Between(1, Number.MAX_SAFE_INTEGER)) actor_id?: number;
  @Optional() @Rules(Str(), MaxLen(100)) type?: string;
  @Optional() @Rules(Iso8601()) date_from?: string;
  @Optional() @Rules(Iso8601()) date_to?: string;
}

/** A plain date is a whole UTC day: from its first instant, or to its last. */
const instant = (value: string | undefined, end: boolean) =>
  value === undefined ? undefined : value.length === 10 ? `${value}T${end ? '23:59:59.999' : '00:00:00.000'}Z` : new Date(value).toISOString();

/** docs/teams.md: who did what in the caller's organisation, newest first; admins and owners only. */
@UserApi()
export class AuditController {
  constructor(
    @Inject(AUDIT_TRAIL) private readonly trail: AuditTrail,
    private readonly config: AppConfig,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly upcasters: Upcasters,
  ) {}

  @Get('audit')
  @Permit('read', 'admin')
  async list(@CurrentUser() user: AuthenticatedUser, @Query(new AppValidationPipe()) query: AuditQuery, @Req() req: FastifyRequest) {
    const filter = {
      organisationId: user.organisationId,
      types: AUDITED_EVENT_TYPES,
      type: query.type,
      actorType: query.actor_type,
      actorId: query.actor_id,
      from: instant(query.date_from, false),
      to: instant(query.date_to, true),
    };
    const { entries, total } = await this.trail.page(filter, (query.page - 1) * query.per_page, query.per_page);
    return listPage(await Promise.all(entries.map((entry) => this.shown(entry))), total, query, req, this.config.publicUrl);
  }

  /**
   * An entry with its event's values as the log holds them now: personal values opened (`[erased]`
   * once their person is erased, docs/privacy.md), secrets masked.
   */
  private async shown({ position, type, stream, actor, occurred_at }: AuditEntry) {
    const event = await this.events.readAt(position);
    return { position, type, stream, actor, occurred_at, data: event ? withSecretsHidden(this.upcasters.upcast(event).data) : null };
  }
}
