import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AuthenticatedUser } from '../../access/access-token-verifier';
import { CommandRunner } from '../../infrastructure/event-sourcing/command-runner';
import { ProjectionRunner } from '../../infrastructure/projections/projection-runner';
import { PublicTargets } from '../../infrastructure/outbound/public-targets';
import { UpdateToolDto } from '../tool.dto';
import { toolDecider } from '../tool.decider';
import { toolStream } from '../tool.events';
import { ToolRecord, ToolsProjection } from '../tools.projection';
import { defined } from '../../shared/defined';

export class UpdateTool {
  constructor(
    readonly user: AuthenticatedUser,
    readonly toolId: number,
    readonly body: UpdateToolDto,
  ) {}
}

@CommandHandler(UpdateTool)
export class UpdateToolHandler implements ICommandHandler<UpdateTool, ToolRecord> {
  constructor(
    private readonly runner: CommandRunner,
    private readonly projections: ProjectionRunner,
    private readonly targets: PublicTargets,
    private readonly read: ToolsProjection,
  ) {}

  async execute({ user, toolId, body }: UpdateTool): Promise<ToolRecord> {
    const { name, description, endpoint, method, timeout, headers, schema } = body;
    const changes = defined({ name, description, endpoint, method, timeout, headers, schema });
    const { position } = await this.runner.run(toolStream(toolId), toolDecider, {
      type: 'UpdateTool',
      toolId,
      organisationId: user.organisationId,
      changes,
      endpointPublic: endpoint === undefined || (await this.targets.accepts(endpoint)),
    });
    await this.projections.settle(position);
    return (await this.read.tools.get(toolId))!;
  }
}
