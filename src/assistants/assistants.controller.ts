import { Permit } from '../access/permissions';
import { Body, Delete, Get, HttpCode, HttpException, Post, Put, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { AppConfig } from '../infrastructure/config/app-config';
import { AuthenticatedUser } from '../access/access-token-verifier';
import { CurrentUser, UserApi } from '../access/user-api.decorator';
import { Exchange, HttpExchange, IdempotentRequests } from '../idempotency/idempotent-requests';
import { DomainError } from '../shared/domain-error';
import { IdParam } from '../shared/http/id-param';
import { pageEnvelope } from '../shared/http/page-envelope';
import { PageQuery, listPath } from '../shared/http/page-query';
import { AppValidationPipe, CheckedBody, CheckedBodyPipe } from '../shared/validation/validation.pipe';
import { AssistantView } from './assistant-view';
import { CreateAssistantDto, UpdateAssistantDto } from './assistant.dto';
import { AssistantDocument, AssistantsProjection } from './assistants.projection';
import { AssistantsQueries } from './assistants.queries';
import { CreateAssistant } from './commands/create-assistant';
import { DeleteAssistant } from './commands/delete-assistant';
import { UpdateAssistant } from './commands/update-assistant';

export class AssistantPageQuery extends PageQuery(10) {}

const summary = (doc: AssistantDocument) => ({
  id: doc.id,
  name: doc.settings.assistant_name,
  status: 'active',
  type: doc.settings.calls_direction === 'make' ? 'outbound' : 'inbound',
  mode: doc.settings.engine_type,
});

/** Refusals pass through; anything unexpected becomes the operation's own 500 message. */
async function orFail<T>(message: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DomainError || error instanceof HttpException) throw error;
    throw Object.assign(new HttpException({ message }, 500), { cause: error });
  }
}

@UserApi()
export class AssistantsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly read: AssistantsProjection,
    private readonly queries: AssistantsQueries,
    private readonly view: AssistantView,
    private readonly config: AppConfig,
    private readonly idempotent: IdempotentRequests,
  ) {}

  @Permit('assistants:write')
  @Post('assistant')
  @HttpCode(201)
  create(
    @CurrentUser() user: AuthenticatedUser,
    @Body(new CheckedBodyPipe(CreateAssistantDto)) body: CheckedBody<CreateAssistantDto>,
    @Exchange() exchange: HttpExchange,
  ) {
    const answer = (doc: AssistantDocument) => ({ message: 'Assistant created successfully', data: summary(doc) });
    return this.idempotent.answer(
      exchange,
      201,
      (chosen) =>
        orFail('Assistant creation failed', async () => {
          const id: number = await this.commands.execute(new CreateAssistant(user, body, chosen));
          return answer((await this.read.assistants.get(id))!);
        }),
      {
        sequence: 'assistant',
        find: async (id) => {
          const doc = await this.read.assistants.get(id);
          return doc && doc.user_id === user.organisationId ? answer(doc) : null;
        },
      },
    );
  }

  @Permit('assistants:write')
  @Put('assistant/:id')
  update(
    @CurrentUser() user: AuthenticatedUser,
    @IdParam('Assistant') id: number,
    @Body(new CheckedBodyPipe(UpdateAssistantDto)) body: CheckedBody<UpdateAssistantDto>,
  ) {
    return orFail('Assistant update failed', async () => {
      await this.commands.execute(new UpdateAssistant(user, id, body));
      return { message: 'Assistant updated successfully', data: summary((await this.read.assistants.get(id))!) };
    });
  }

  @Permit('assistants:write')
  @Delete('assistant/:id')
  async remove(@CurrentUser() user: AuthenticatedUser, @IdParam('Assistant') id: number) {
    await this.commands.execute(new DeleteAssistant(user, id));
    return { message: 'Assistant deleted successfully' };
  }

  @Permit('read')
  @Get('assistants/get')
  async list(@CurrentUser() user: AuthenticatedUser, @Query(new AppValidationPipe()) query: AssistantPageQuery, @Req() req: FastifyRequest) {
    const filter = { user_id: user.organisationId, deleted: false };
    const [docs, total] = await Promise.all([
      this.read.assistants.find(filter, { sort: [['id', 'asc']], skip: (query.page - 1) * query.per_page, limit: query.per_page }),
      this.read.assistants.count(filter),
    ]);
    return pageEnvelope(await this.view.render(docs), total, {
      page: query.page,
      perPage: query.per_page,
      path: listPath(this.config.publicUrl, req.url.split('?')[0]),
      query: { per_page: query.per_page },
    });
  }

  @Permit('read')
  @Get('assistants/:id')
  async get(@CurrentUser() user: AuthenticatedUser, @IdParam('Assistant') id: number) {
    const doc = await this.queries.owned(user.organisationId, id);
    if (!doc) throw DomainError.notFound('Assistant');
    return (await this.view.render([doc]))[0];
  }
}
