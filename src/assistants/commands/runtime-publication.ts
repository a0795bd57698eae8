import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandRunner } from '../../infrastructure/event-sourcing/command-runner';
import { assistantStream } from '../assistant.events';
import { PublicationState, publicationDecider } from '../runtime-publication.decider';

/** Claims the assistant's publication to the runtime: the state as it stands, and whether this caller is to publish. */
export class ClaimAssistantPublish {
  constructor(
    readonly assistantId: number,
    readonly publicUrl: string,
  ) {}
}

export class RecordAssistantLlm {
  constructor(
    readonly assistantId: number,
    readonly llmId: string,
  ) {}
}

export class RecordAssistantPublished {
  constructor(
    readonly assistantId: number,
    readonly version: number,
    readonly llmId: string,
    readonly agentId: string,
    readonly publicUrl: string,
  ) {}
}

@CommandHandler(ClaimAssistantPublish)
export class ClaimAssistantPublishHandler implements ICommandHandler<ClaimAssistantPublish, { claimed: boolean; state: PublicationState }> {
  constructor(private readonly runner: CommandRunner) {}

  async execute({ assistantId, publicUrl }: ClaimAssistantPublish) {
    const claimed = await this.runner.tryRun(assistantStream(assistantId), publicationDecider, { type: 'ClaimPublish', assistantId, publicUrl });
    if (claimed) return { claimed: claimed.events.length > 0, state: claimed.state };
    return { claimed: false, state: (await this.runner.load(assistantStream(assistantId), publicationDecider)).state };
  }
}

@CommandHandler(RecordAssistantLlm)
export class RecordAssistantLlmHandler implements ICommandHandler<RecordAssistantLlm, void> {
  constructor(private readonly runner: CommandRunner) {}

  async execute({ assistantId, llmId }: RecordAssistantLlm): Promise<void> {
    await this.runner.run(assistantStream(assistantId), publicationDecider, { type: 'RecordLlmCreated', assistantId, llmId }, { retries: 10 });
  }
}

@CommandHandler(RecordAssistantPublished)
export class RecordAssistantPublishedHandler implements ICommandHandler<RecordAssistantPublished, void> {
  constructor(private readonly runner: CommandRunner) {}

  async execute({ assistantId, version, llmId, agentId, publicUrl }: RecordAssistantPublished): Promise<void> {
    const command = { type: 'RecordPublished' as const, assistantId, version, llmId, agentId, publicUrl };
    await this.runner.run(assistantStream(assistantId), publicationDecider, command, { retries: 10 });
  }
}
