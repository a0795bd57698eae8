import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandRunner } from '../../infrastructure/event-sourcing/command-runner';
import { callDecider } from '../call.decider';
import { callStream } from '../call.events';

/** The assistant ends the conversation; recorded before the runtime is told to hang up, so the carrier's end reads as the assistant's. */
export class RecordAssistantHangUp {
  constructor(readonly callId: number) {}
}

@CommandHandler(RecordAssistantHangUp)
export class RecordAssistantHangUpHandler implements ICommandHandler<RecordAssistantHangUp, { position: number | null }> {
  constructor(private readonly runner: CommandRunner) {}

  async execute({ callId }: RecordAssistantHangUp): Promise<{ position: number | null }> {
    const { position } = await this.runner.run(callStream(callId), callDecider, { type: 'RecordAssistantHangUp', id: callId }, { retries: 10 });
    return { position };
  }
}

/** The runtime stored the call's recording (after the call's end). */
export class RecordCallRecording {
  constructor(
    readonly callId: number,
    readonly recordingUrl: string,
  ) {}
}

@CommandHandler(RecordCallRecording)
export class RecordCallRecordingHandler implements ICommandHandler<RecordCallRecording, { position: number | null }> {
  constructor(private readonly runner: CommandRunner) {}

  async execute({ callId, recordingUrl }: RecordCallRecording): Promise<{ position: number | null }> {
    const { position } = await this.runner.run(callStream(callId), callDecider, { type: 'RecordCallRecording', id: callId, recordingUrl }, { retries: 10 });
    return { position };
  }
}
