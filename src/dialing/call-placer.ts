import { Injectable, Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { AssistantView } from '../assistants/assistant-view';
import { AssistantsQueries } from '../assistants/assistants.queries';
import { CallSpec } from '../calls/call.events';
import { ConfirmDialSent } from '../calls/commands/call-dial';
import { RecordCallOutcome } from '../calls/commands/record-call-outcome';
import { AppConfig } from '../infrastructure/config/app-config';
import { Metrics } from '../infrastructure/metrics/metrics';
import { DoNotCallQueries } from '../do-not-call/do-not-call.queries';
import { DialRequest, Dialer } from './dialer.port';

/**
 * Sends a call's dial request to the dialer, the first time or again under the same call id:
 * accepted, the call records that its dial was sent; refused, the call is `failed`.
 */
@Injectable()
export class CallPlacer {
  private readonly logger = new Logger('CallPlacer');

  constructor(
    private readonly commands: CommandBus,
    private readonly assistants: AssistantsQueries,
    private readonly assistantView: AssistantView,
    private readonly dialer: Dialer,
    private readonly config: AppConfig,
    private readonly metrics: Metrics,
    private readonly doNotCall: DoNotCallQueries,
  ) {}

  async place(callId: number, spec: CallSpec): Promise<void> {
    // Contract §13: a number listed after its lead was claimed is still never dialed.
    if (spec.campaign_id !== null && (await this.doNotCall.listed(spec.user_id, [spec.client_phone_number])).length) {
      this.metrics.callPlaced('refused');
      await this.commands.execute(
        new RecordCallOutcome(
          callId,
          'failed',
          {},
          {
            reason: 'not dialed: the number is on the do-not-call list',
            notDialed: 'do-not-call',
          },
        ),
      );
      return;
    }
    const assistant = await this.assistants.get(spec.assistant_id);
    if (!assistant) {
      await this.commands.execute(new RecordCallOutcome(callId, 'failed', {}, { reason: 'dial refused: the assistant is gone' }));
      return;
    }
    const request: DialRequest = {
      call_id: callId,
      from: spec.assistant_phone_number,
      to: spec.client_phone_number,
      assistant_id: assistant.id,
      assistant: (await this.assistantView.render([assistant]))[0],
      campaign_id: spec.campaign_id,
      lead_id: spec.lead_id,
      secondary_contact_id: spec.secondary_contact_id,
      variables: spec.variables,
      callback_url: `${this.config.publicUrl.replace(/\/$/, '')}/api/telephony/calls/${callId}/events`,
    };
    try {
      await this.dialer.dial(request);
      this.metrics.callPlaced('accepted');
    } catch (error) {
      this.metrics.callPlaced('refused');
      await this.commands.execute(new RecordCallOutcome(callId, 'failed', {}, { reason: `dial refused: ${(error as Error).message}` }));
      return;
    }
    // Unrecorded, the dial is sent again later under the same id, which providers deduplicate on.
    await this.commands
      .execute(new ConfirmDialSent(callId))
      .catch((error: Error) => this.logger.warn(`call ${callId}: its dial could not be confirmed: ${error.message}`));
  }
}
