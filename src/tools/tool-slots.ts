import { Injectable } from '@nestjs/common';
import { CommandRunner } from '../infrastructure/event-sourcing/command-runner';
import { HolderStatus } from '../reservations/reservation.decider';
import { Reservations } from '../reservations/reservations';
import { DomainError } from '../shared/domain-error';
import { planLimitMessage, toolDecider } from './tool.decider';
import { toolStream } from './tool.events';
import { ToolsProjection } from './tools.projection';

/** One reservation stream per user: the tools that use a place of the plan. */
export const toolSlotsStream = (organisationId: number) => `tool_slots-${organisationId}`;

/** docs/api.md: a user never has more live tools than the plan allows, decided by an append to their slots. */
@Injectable()
export class ToolSlots {
  constructor(
    private readonly reservations: Reservations,
    private readonly runner: CommandRunner,
    private readonly tools: ToolsProjection,
  ) {}

  /** Takes a slot for a tool about to be created; refused with the plan limit's message when none is free. */
  async take(organisationId: number, toolId: number, planLimit: number): Promise<void> {
    const taken = await this.reservations.reserve(
      toolSlotsStream(organisationId),
      toolId,
      planLimit,
      (holder) => this.statusOf(holder),
      // Tools stored before the slots had a stream.
      async () => (await this.tools.tools.find({ user_id: organisationId })).map((tool) => tool.id),
    );
    if (!taken) throw new DomainError('validation', planLimitMessage(planLimit));
  }

  /** Runs the tool's creation after its slot was taken: failed, the slot is given back unless the tool was made. */
  creating<T>(organisationId: number, toolId: number, create: () => Promise<T>): Promise<T> {
    return this.reservations.creating(toolSlotsStream(organisationId), toolId, async () => (await this.statusOf(toolId)) !== 'absent', create);
  }

  private async statusOf(toolId: number): Promise<HolderStatus> {
    const { state } = await this.runner.load(toolStream(toolId), toolDecider);
    if (!state.exists) return 'absent';
    return state.deleted ? 'gone' : 'live';
  }
}
