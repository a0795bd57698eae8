import { Inject, Injectable } from '@nestjs/common';
import { Actor, actorOf } from '../shared/event-sourcing/actor';
import { campaignCorrelation } from '../shared/event-sourcing/correlation';
import { Upcasters } from '../infrastructure/event-sourcing/upcasters';
import { EVENT_STORE, EventStore, RecordedEvent } from '../shared/ports/event-store.port';
import { CampaignStateAt, campaignStateAt } from './campaign-state-at';
import { withSecretsHidden } from '../shared/secrets';

const PAGE = 1000;

export interface TrailEntry {
  position: number;
  type: string;
  stream: string;
  occurred_at: string;
  /** docs/teams.md: who the event was written for. */
  actor: Actor;
  data: unknown;
}

/** The audit trail of docs/api.md, replayed from the event store through its campaign correlation index. */
@Injectable()
export class CampaignHistory {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly upcasters: Upcasters,
  ) {}

  /** One page of the trail after `after`; `next_cursor` is null on the last page. */
  async page(campaignId: number, after: number, limit: number): Promise<{ data: TrailEntry[]; next_cursor: string | null }> {
    const events = await this.read(campaignId, after, limit + 1);
    const data = events.slice(0, limit).map(entry);
    return { data, next_cursor: events.length > limit ? String(data[data.length - 1].position) : null };
  }

  async stateAt(campaignId: number, asOf: Date): Promise<CampaignStateAt | null> {
    const events: RecordedEvent[] = [];
    const leadsSeen = new Set<string>();
    for (let after = 0; ;) {
      const page = await this.read(campaignId, after, PAGE);
      for (const event of page) {
        // A lead moved in from another campaign: its earlier events are correlated there.
        if (event.stream.startsWith('lead-') && !leadsSeen.has(event.stream)) {
          leadsSeen.add(event.stream);
          if (event.type !== 'LeadCreated') {
            events.push(...(await this.events.readStream(event.stream)).filter((e) => e.position < event.position).map((e) => this.upcasters.upcast(e)));
          }
        }
        events.push(event);
      }
      if (page.length < PAGE || Date.parse(page[page.length - 1].occurredAt) > asOf.getTime()) break;
      after = page[page.length - 1].position;
    }
    events.sort((a, b) => a.position - b.position);
    return campaignStateAt(campaignId, events, asOf);
  }

  private async read(campaignId: number, after: number, limit: number): Promise<RecordedEvent[]> {
    return (await this.events.readCorrelated(campaignCorrelation(campaignId), after, limit)).map((e) => this.upcasters.upcast(e));
  }
}

const entry = (e: RecordedEvent): TrailEntry => ({
  position: e.position,
  type: e.type,
  stream: e.stream,
  occurred_at: e.occurredAt,
  actor: actorOf(e.metadata),
  data: withSecretsHidden(e.data),
});
