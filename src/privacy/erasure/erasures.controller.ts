import { Body, Get, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation } from '@nestjs/swagger';
import { AuthenticatedUser } from '../../access/access-token-verifier';
import { Permit } from '../../access/permissions';
import { CurrentUser, UserApi } from '../../access/user-api.decorator';
import { DomainError } from '../../shared/domain-error';
import { toE164 } from '../../shared/phone';
import { AppValidationPipe } from '../../shared/validation/validation.pipe';
import { RequestErasureDto } from './erasure.dto';
import { ErasuresProjection, erasureView } from './erasures.projection';
import { RequestErasure } from './request-erasure';

export const NOT_A_NUMBER = 'The phone number field must be a valid phone number in E.164 format.';

@UserApi()
export class ErasuresController {
  constructor(
    private readonly commands: CommandBus,
    private readonly read: ErasuresProjection,
  ) {}

  /** docs/privacy.md: erases everything the organisation holds on a number (GDPR article 17); admins and owners. */
  @ApiOperation({ summary: 'Erase everything the organisation holds on one phone number' })
  @Permit('dnc:write', 'admin')
  @Post('privacy/erasures')
  @HttpCode(202)
  async request(@CurrentUser() user: AuthenticatedUser, @Body(new AppValidationPipe()) body: RequestErasureDto) {
    const phoneNumber = toE164(body.phone_number);
    if (phoneNumber === null) throw DomainError.validation('phone_number', NOT_A_NUMBER);
    const id: number = await this.commands.execute(new RequestErasure(user.organisationId, phoneNumber));
    const erasure = await this.read.erasures.get(id);
    return { message: 'Erasure requested.', data: erasureView(erasure!) };
  }

  @ApiOperation({ summary: 'An erasure and whether it is done' })
  @Permit('read', 'admin')
  @Get('privacy/erasures/:id')
  async get(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string) {
    const erasure = /^[1-9]\d{0,15}$/.test(id) ? await this.read.erasures.get(Number(id)) : null;
    if (!erasure || erasure.user_id !== user.organisationId) throw DomainError.notFound('Erasure');
    return erasureView(erasure);
  }
}
