import { Body, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { AuthenticatedUser } from '../access/access-token-verifier';
import { Permit, ROLES, Role } from '../access/permissions';
import { CurrentUser, UserApi } from '../access/user-api.decorator';
import { DomainError } from '../shared/domain-error';
import { IdParam } from '../shared/http/id-param';
import { Email, MaxLen, OneOf, Required, Rules, Str } from '../shared/validation/rules';
import { AppValidationPipe } from '../shared/validation/validation.pipe';
import { OrganisationCommands } from './commands/organisation-commands';
import { MemberRecord, UsersProjection } from './users.projection';

export class AddMemberDto {
  @Rules(Required(), Str(), MaxLen(255), Email()) email!: string;
  @Rules(Required(), OneOf(ROLES)) role!: Role;
}

export class ChangeMemberDto {
  @Rules(Required(), OneOf(ROLES)) role!: Role;
}

const view = (member: MemberRecord) => ({ id: member.user_id, email: member.email, role: member.role, created_at: member.created_at });

/** docs/teams.md: the members of the caller's organisation and their roles. */
@UserApi()
export class MembersController {
  constructor(
    private readonly organisations: OrganisationCommands,
    private readonly read: UsersProjection,
  ) {}

  @Get('members')
  @Permit('read')
  async list(@CurrentUser() user: AuthenticatedUser) {
    return (await this.read.members.find({ organisation_id: user.organisationId }, { sort: [['user_id', 'asc']] })).map(view);
  }

  @Post('members')
  @Permit('members:write')
  @HttpCode(201)
  async add(@CurrentUser() user: AuthenticatedUser, @Body(new AppValidationPipe()) body: AddMemberDto) {
    const added = await this.organisations.addMember(user, body.email, body.role);
    return { message: 'Member added successfully.', data: { id: added.id, email: added.email, role: added.role, token: added.token } };
  }

  @Put('members/:id')
  @Permit('members:write')
  async change(@CurrentUser() user: AuthenticatedUser, @IdParam('Member') id: number, @Body(new AppValidationPipe()) body: ChangeMemberDto) {
    await this.organisations.changeRole(user, id, body.role);
    return { message: 'Member updated successfully.', data: view(await this.member(user, id)) };
  }

  @Delete('members/:id')
  @Permit('members:write')
  async remove(@CurrentUser() user: AuthenticatedUser, @IdParam('Member') id: number) {
    await this.organisations.removeMember(user, id);
    return { message: 'Member deleted successfully' };
  }

  private async member(user: AuthenticatedUser, id: number): Promise<MemberRecord> {
    const member = await this.read.members.get(id);
    if (!member || member.organisation_id !== user.organisationId) throw DomainError.notFound('Member');
    return member;
  }
}
