import { Permit } from '../access/permissions';
import { Body, Delete, Get, Headers, HttpCode, HttpException, Post, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { AuthenticatedUser } from '../access/access-token-verifier';
import { CurrentUser, UserApi } from '../access/user-api.decorator';
import { Exchange, HttpExchange, IdempotentRequests } from '../idempotency/idempotent-requests';
import { DomainError } from '../shared/domain-error';
import { IdParam } from '../shared/http/id-param';
import { AppValidationPipe } from '../shared/validation/validation.pipe';
import { CreateTool } from './commands/create-tool';
import { DeleteTool } from './commands/delete-tool';
import { UpdateTool } from './commands/update-tool';
import { ToolRunner } from './tool-runner';
import { CreateToolDto, ToolArgumentsDto, UpdateToolDto } from './tool.dto';
import { ToolRecord, ToolsProjection, toolView } from './tools.projection';

const isJson = (value: string | undefined) => !!value && /^application\/json\s*(;.*)?$/i.test(value.trim());

@UserApi()
export class ToolsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly read: ToolsProjection,
    private readonly runner: ToolRunner,
    private readonly idempotent: IdempotentRequests,
  ) {}

  @Permit('tools:write')
  @Post('tools')
  @HttpCode(201)
  create(
    @CurrentUser() user: AuthenticatedUser,
    @Body(new AppValidationPipe({ firstErrorAsMessage: true })) body: CreateToolDto,
    @Exchange() exchange: HttpExchange,
  ) {
    const answer = (tool: ToolRecord) => ({ message: 'Tool created successfully', data: toolView(tool) });
    return this.idempotent.answer(exchange, 201, async (chosen) => answer(await this.commands.execute(new CreateTool(user, body, chosen))), {
      sequence: 'tool',
      find: async (id) => {
        const tool = await this.read.tools.get(id);
        return tool && tool.user_id === user.organisationId ? answer(tool) : null;
      },
    });
  }

  @Permit('read')
  @Get('tools')
  async list(@CurrentUser() user: AuthenticatedUser) {
    return (await this.read.tools.find({ user_id: user.organisationId }, { sort: [['id', 'asc']] })).map(toolView);
  }

  /** docs/api.md: this read demands JSON Accept and Content-Type headers. */
  @Permit('read')
  @Get('tools/:id')
  async get(
    @CurrentUser() user: AuthenticatedUser,
    @IdParam('Tool') id: number,
    @Headers('accept') accept?: string,
    @Headers('content-type') contentType?: string,
  ) {
    if (!isJson(accept)) throw new HttpException({ message: 'Accept header must be application/json.' }, 406);
    if (!isJson(contentType)) throw new HttpException({ message: 'Content-Type header must be application/json.' }, 415);
    const tool = await this.read.tools.get(id);
    if (!tool || tool.user_id !== user.organisationId) throw DomainError.notFound('Tool');
    return toolView(tool);
  }

  /** Runs the tool for its owner with the given arguments (docs/api.md). */
  @Permit('tools:write')
  @Post('tools/:id/test')
  @HttpCode(200)
  async test(@CurrentUser() user: AuthenticatedUser, @IdParam('Tool') id: number, @Body(new AppValidationPipe()) body: ToolArgumentsDto) {
    const tool = await this.read.tools.get(id);
    if (!tool || tool.user_id !== user.organisationId) throw DomainError.notFound('Tool');
    return this.runner.run(tool, body.arguments ?? {});
  }

  @Permit('tools:write')
  @Put('tools/:id')
  async update(@CurrentUser() user: AuthenticatedUser, @IdParam('Tool') id: number, @Body(new AppValidationPipe()) body: UpdateToolDto) {
    const tool = await this.commands.execute(new UpdateTool(user, id, body));
    return { message: 'Tool updated successfully', data: toolView(tool) };
  }

  @Permit('tools:write')
  @Delete('tools/:id')
  async remove(@CurrentUser() user: AuthenticatedUser, @IdParam('Tool') id: number) {
    await this.commands.execute(new DeleteTool(user, id));
    return { message: 'Tool deleted successfully' };
  }
}
