import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandRunner } from '../../infrastructure/event-sourcing/command-runner';
import { toE164 } from '../../shared/phone';
import { Sealer } from '../../shared/sealing/sealer';
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
    /** The number of the person the notification is about (a call's, a lead's); null for a campaign's. */
    readonly about: string | null,
  ) {}
}

/** Records that a notification is owed; the payload is fixed now, so later changes do not alter what is sent. */
@CommandHandler(RequestWebhook)
export class RequestWebhookHandler implements ICommandHandler<RequestWebhook> {
  constructor(
    private readonly runner: CommandRunner,
    private readonly sealer: Sealer,
  ) {}

  async execute({ id, callId, organisationId, campaignId, event, url, payload, about }: RequestWebhook) {
    // docs/privacy.md: the delivery's stream is the person's, so what the user's system answers
    // about them is sealed under their key and erased with them.
    // An erased person's number reads `[erased]`: no number, no subject.
    const number = toE164(about);
    const subject = number ? this.sealer.subjectKeyId(organisationId, number) : undefined;
    await this.runner.run(
      webhookStream(id),
      webhookDecider,
      { type: 'RequestWebhook', id, callId, organisationId, campaignId, event, url, payload },
      { subject },
    );
  }
}
