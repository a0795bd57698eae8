import { Get, Param } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { AuthenticatedUser } from '../access/access-token-verifier';
import { Permit } from '../access/permissions';
import { CurrentUser, UserApi } from '../access/user-api.decorator';
import { DomainError } from '../shared/domain-error';
import { toE164 } from '../shared/phone';
import { SubjectAccess } from './subject-access';

@UserApi()
export class PrivacyController {
  constructor(private readonly subjects: SubjectAccess) {}

  /** docs/privacy.md: what the organisation holds on a number (GDPR article 15); admins and owners. */
  @ApiOperation({ summary: 'Everything the organisation holds on one phone number' })
  @Permit('read', 'admin')
  @Get('privacy/subjects/:phone_number')
  async subject(@CurrentUser() user: AuthenticatedUser, @Param('phone_number') raw: string) {
    const phoneNumber = toE164(raw);
    if (phoneNumber === null) throw DomainError.validation('phone_number', 'The phone number field must be a valid phone number in E.164 format.');
    return this.subjects.of(user.organisationId, phoneNumber);
  }
}
