import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AuthenticatedUser } from '../../access/access-token-verifier';
import { CommandRunner } from '../../infrastructure/event-sourcing/command-runner';
import { EVENT_STORE, EventStore } from '../../shared/ports/event-store.port';
import { ProjectionRunner } from '../../infrastructure/projections/projection-runner';
import { PublicTargets } from '../../infrastructure/outbound/public-targets';
import { defined } from '../../shared/defined';
import { CreateToolDto } from '../tool.dto';
import { toolDecider } from '../tool.decider';
import { toolStream } from '../tool.events';
import { ToolRecord, ToolsProjection } from '../tools.projection';
import { ToolSlots } from '../tool-slots';

export class CreateTool {
  constructor(
    readonly user: AuthenticatedUser,
    readonly body: CreateToolDto,
    /** The id chosen for it beforehand (an idempotent request's); else one is drawn. */
    readonly id?: number,
  ) {}
}

@CommandHandler(CreateTool)
export class CreateToolHandler implements ICommandHandler<CreateTool, ToolRecord> {
  constructor(
    private readonly runner: CommandRunner,
    private readonly projections: ProjectionRunner,
    private readonly targets: PublicTargets,
    private readonly read: ToolsProjection,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly slots: ToolSlots,
  ) {}

  async execute({ user, body, id }: CreateTool): Promise<ToolRecord> {
    const toolId = id ?? (await this.events.nextId('tool'));
    await this.slots.take(user.organisationId, toolId, user.toolLimit);
    const { name, description, endpoint, method, timeout, headers, schema } = body;
    // A refusal (a private endpoint) or a failure after the slot was taken gives the slot back.
    const { position } = await this.slots.creating(user.organisationId, toolId, async () =>
      this.runner.run(
        toolStream(toolId),
        toolDecider,
        {
          type: 'CreateTool',
          toolId,
          organisationId: user.organisationId,
          tool: { name, description, endpoint, method, ...defined({ timeout, headers, schema }) },
          endpointPublic: await this.targets.accepts(endpoint),
        },
        { retries: 0, newStream: true },
      ),
    );
    await this.projections.settle(position);
    return (await this.read.tools.get(toolId))!;
  }
}
