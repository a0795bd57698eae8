import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SqliteEventStore } from '../../infrastructure/event-store/sqlite-event-store';
import { sealerForEachTest } from '../../testing/sealer.fixture';
import { webhookStream } from '../../webhooks/webhook.events';
import { sealEmbeddedWebhookAnswers } from './seal-embedded-webhook-answers';

const NOTE = 'Vera-Quill is a gold customer';
const DELIVERY = { call_id: 4, user_id: 9, campaign_id: 2, event: 'call.ended' };

describe('the upgrade that seals what users’ systems answered about a person', () => {
  const made = sealerForEachTest('webhook-answers-');
  const inLog = (text: string) => readdirSync(made.dir).filter((file) => file.startsWith('events.db') && readFileSync(join(made.dir, file)).includes(text));

  it('given deliveries as the earlier build wrote them, when upgraded: a call’s answer sealed under its person’s key, a campaign’s as it was, once', async () => {
    const { sealer } = made;
    const file = join(made.dir, 'events.db');
    const subject = sealer.subjectKeyId(9, '+12015550161');
    const number = await sealer.sealForSubject(subject, JSON.stringify('+12015550161'), '[erased]');
    const requested = (id: string, payload: object) => ({
      type: 'WebhookRequested',
      data: { ...DELIVERY, delivery_id: id, url: 'https://crm.example.com', payload },
    });
    const answered = (id: string) => ({
      type: 'WebhookAttemptFinished',
      data: {
        ...DELIVERY,
        delivery_id: id,
        attempt: 1,
        status_code: 200,
        body: { ok: true, note: NOTE },
        error: null,
        outcome: 'delivered',
        next_attempt_at: null,
      },
    });
    const written = new SqliteEventStore(file);
    await written.append(
      webhookStream('call.ended-4'),
      [requested('call.ended-4', { event: 'call.ended', call: { id: 4, client_phone_number: number } }), answered('call.ended-4')],
      'no_stream',
    );
    await written.append(
      webhookStream('campaign.completed-7'),
      [requested('campaign.completed-7', { event: 'campaign.completed', campaign: { id: 2 } }), answered('campaign.completed-7')],
      'no_stream',
    );
    await written.close();
    expect(inLog(NOTE)).not.toEqual([]);

    expect(await sealEmbeddedWebhookAnswers(file, sealer)).toBe(2);

    const store = new SqliteEventStore(file);
    const [request, answer, campaignRequest, campaignAnswer] = await store.readAll(0, 10);
    await store.close();
    expect(answer.data.body.note).toMatch(new RegExp(`^sealed:v2:${subject}:`));
    expect(await sealer.openForSubject(answer.data.body.note)).toBe(JSON.stringify(NOTE));
    expect(request.data.payload.call).toEqual({ id: 4, client_phone_number: number });
    expect([request.metadata.subject, answer.metadata.subject]).toEqual([subject, subject]);
    // A campaign's notification is about no person: left as it was (its answer is the only plain copy left).
    expect(campaignAnswer.data.body).toEqual({ ok: true, note: NOTE });
    expect([campaignRequest.metadata.subject, campaignAnswer.metadata.subject]).toEqual([undefined, undefined]);
    expect(inLog(NOTE)).toHaveLength(1);
    expect(await sealEmbeddedWebhookAnswers(file, sealer)).toBe(0);
  });
});
