import { Permit } from '../access/permissions';
import { Body, Delete, Get, HttpCode, Inject, Post } from '@nestjs/common';
import { AuthenticatedUser } from '../access/access-token-verifier';
import { CurrentUser, UserApi } from '../access/user-api.decorator';
import { Exchange, HttpExchange, IdempotentRequests } from '../idempotency/idempotent-requests';
import { PhoneNumberOwners } from './phone-number-owners';
import { CommandRunner } from '../infrastructure/event-sourcing/command-runner';
import { EVENT_STORE, EventStore } from '../shared/ports/event-store.port';
import { ProjectionRunner } from '../infrastructure/projections/projection-runner';
import { DomainError } from '../shared/domain-error';
import { IdParam } from '../shared/http/id-param';
import { toE164 } from '../shared/phone';
import { MaxLen, Required, Rules, Str, Optional } from '../shared/validation/rules';
import { AppValidationPipe } from '../shared/validation/validation.pipe';
import { phoneNumberDecider } from './phone-number.decider';
import { phoneNumberStream } from './phone-number.events';
import { PhoneNumberRecord, PhoneNumbersProjection } from './phone-numbers.projection';

export class AddPhoneNumberDto {
  @Rules(Required(), Str(), MaxLen(32)) phone_number!: string;
  @Optional() @Rules(Str(), MaxLen(255)) label?: string;
}

const view = ({ user_id: _owner, ...record }: PhoneNumberRecord) => record;

/** The user's own phone numbers, which assistants answer and call from (docs/api.md). */
@UserApi()
export class PhoneNumbersController {
  constructor(
    private readonly runner: CommandRunner,
    private readonly projections: ProjectionRunner,
    private readonly read: PhoneNumbersProjection,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly owners: PhoneNumberOwners,
    private readonly idempotent: IdempotentRequests,
  ) {}

  @Permit('phone-numbers:write')
  @Post('phone-numbers')
  @HttpCode(201)
  add(@CurrentUser() user: AuthenticatedUser, @Body(new AppValidationPipe()) body: AddPhoneNumberDto, @Exchange() exchange: HttpExchange) {
    const answer = (doc: PhoneNumberRecord) => ({ message: 'Phone number created successfully', data: view(doc) });
    const find = async (id: number) => {
      const doc = await this.read.numbers.get(id);
      return doc && doc.user_id === user.organisationId ? answer(doc) : null;
    };
    return this.idempotent.answer(
      exchange,
      201,
      async (chosen) => {
        const phoneNumber = toE164(body.phone_number);
        if (!phoneNumber) throw DomainError.validation('phone_number', 'The phone number field must be a valid E.164 phone number.');
        const id = chosen ?? (await this.events.nextId('phone_number'));
        const alreadyOwned = !(await this.owners.take(phoneNumber, id));
        const { position } = await this.runner.run(
          phoneNumberStream(id),
          phoneNumberDecider,
          { type: 'AddPhoneNumber', id, organisationId: user.organisationId, phoneNumber, label: body.label ?? null, alreadyOwned },
          { retries: 0, newStream: true },
        );
        await this.projections.settle(position);
        return answer((await this.read.numbers.get(id))!);
      },
      { sequence: 'phone_number', find },
    );
  }

  @Permit('read')
  @Get('phone-numbers')
  async list(@CurrentUser() user: AuthenticatedUser) {
    return (await this.read.numbers.find({ user_id: user.organisationId }, { sort: [['id', 'asc']] })).map(view);
  }

  @Permit('phone-numbers:write')
  @Delete('phone-numbers/:id')
  async remove(@CurrentUser() user: AuthenticatedUser, @IdParam('Phone number') id: number) {
    const { position } = await this.runner.run(phoneNumberStream(id), phoneNumberDecider, {
      type: 'RemovePhoneNumber',
      id,
      organisationId: user.organisationId,
    });
    await this.projections.settle(position);
    return { message: 'Phone number deleted successfully' };
  }
}
