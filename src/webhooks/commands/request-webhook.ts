import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandRunner } from '../../infrastructure/event-sourcing/command-runner';
import { webhookDecider } from '../webhook.decider';
import { WebhookKind, webhookStream } from '../webhook.events';

export class RequestWebhook {
  constructor(
    readonly id: string,
    readonly callId: number | null,
    readonly organisationId: number,
    readonly campaignId: number | null,
    readonly event: WebhookKind,
    readonly url: string,
    readonly payload: Record<string, unknown>,
  ) {}
}

/** Records that a notification is owed; the payload is fixed now, so later changes do not alter what is sent. */
@CommandHandler(RequestWebhook)
export class RequestWebhookHandler implements ICommandHandler<RequestWebhook> {
  constructor(private readonly runner: CommandRunner) {}

  async execute({ id, callId, organisationId, campaignId, event, url, payload }: RequestWebhook) {
    await this.runner.run(webhookStream(id), webhookDecider, { type: 'RequestWebhook', id, callId, organisationId, campaignId, event, url, payload });
  }
}
