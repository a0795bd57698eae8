import { Permit } from '../access/permissions';
import { Body, Delete, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { AuthenticatedUser } from '../access/access-token-verifier';
import { CurrentUser, UserApi } from '../access/user-api.decorator';
import { AppConfig } from '../infrastructure/config/app-config';
import { DomainError } from '../shared/domain-error';
import { pagedList } from '../shared/http/paged-list';
import { SortOrder } from '../shared/ports/document-store.port';
import { toE164 } from '../shared/phone';
import { AppValidationPipe } from '../shared/validation/validation.pipe';
import { AddToDoNotCall } from './commands/add-to-do-not-call';
import { RemoveFromDoNotCall } from './commands/remove-from-do-not-call';
import { AddToDoNotCallDto, DoNotCallListQuery } from './do-not-call.dto';
import { DoNotCallEntry, DoNotCallProjection } from './do-not-call.projection';

const view = ({ phone_number, reason, source, created_at }: DoNotCallEntry) => ({ phone_number, reason, source, created_at });

/** The user's do-not-call list (docs/dialing.md): its numbers are never dialed, whatever campaign holds them. */
@UserApi()
export class DoNotCallController {
  constructor(
    private readonly commands: CommandBus,
    private readonly read: DoNotCallProjection,
    private readonly config: AppConfig,
  ) {}

  @Permit('dnc:write')
  @Post('dnc')
  @HttpCode(200)
  async add(@CurrentUser() user: AuthenticatedUser, @Body(new AppValidationPipe()) body: AddToDoNotCallDto) {
    const numbers = body.phone_numbers.map((n) => toE164(n)!);
    const added = await this.commands.execute<AddToDoNotCall, number>(new AddToDoNotCall(user.organisationId, numbers, body.reason ?? null, 'user'));
    return { message: 'Numbers added to the do-not-call list.', added };
  }

  /** Newest first. */
  @Permit('read')
  @Get('dnc')
  async list(@CurrentUser() user: AuthenticatedUser, @Query(new AppValidationPipe()) query: DoNotCallListQuery, @Req() req: FastifyRequest) {
    const phone = query.phone_number === undefined ? undefined : (toE164(query.phone_number) ?? query.phone_number);
    const sort: SortOrder = [
      ['listed_at_position', 'desc'],
      ['phone_number', 'asc'],
    ];
    return pagedList(this.read.entries, { user_id: user.organisationId, phone_number: phone }, sort, query, req, this.config.publicUrl, view);
  }

  @Permit('dnc:write')
  @Delete('dnc/:phone_number')
  async remove(@CurrentUser() user: AuthenticatedUser, @Param('phone_number') phoneNumber: string) {
    const e164 = toE164(phoneNumber);
    if (!e164) throw DomainError.notFound('Number');
    await this.commands.execute(new RemoveFromDoNotCall(user.organisationId, e164));
    return { message: 'Number removed from the do-not-call list.' };
  }
}
