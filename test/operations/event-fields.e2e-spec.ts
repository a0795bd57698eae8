import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { AppModule } from '../../src/app.module';
// Loaded by the EventStoreDB adapter only.
import '../../src/infrastructure/event-store/id-blocks';
import { declaredEventTypes, fieldsOf } from '../../src/shared/event-sourcing/event-fields';
import { hasPersonalFields } from '../../src/shared/sealing/personal-fields';

/** Every source file of the service, tests and test helpers left out. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'testing' ? [] : sources(path);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') && !name.endsWith('.contract.ts') ? [path] : [];
  });
}

/**
 * docs/privacy.md: each event type's fields are declared plain, personal or secret next to the
 * event (the compiler holds each declared union to its fields); this finds an event type written
 * anywhere in the service that no declaration names.
 */
describe('event field declarations', () => {
  it('name every event type the service defines', () => {
    expect(AppModule).toBeDefined();
    const defined = new Set(
      sources(join(__dirname, '../../src')).flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/DomainEvent<\s*'(\w+)'/g)].map((m) => m[1])),
    );
    expect(defined.size).toBeGreaterThan(60);
    expect([...defined].filter((type) => fieldsOf(type) === undefined)).toEqual([]);
    expect(declaredEventTypes().length).toBe(defined.size);
  });

  it('say of each number, variable, transcript, recording and evaluation that it is personal, and of each credential that it is secret', () => {
    // `subject`: personal, and the person whose key seals the rest of the stream's personal values.
    // `retained:<kind>`: personal, and kept no longer than the organisation's retention of that kind.
    expect(fieldsOf('CallInitiated')).toMatchObject({ client_phone_number: 'subject', variables: 'retained:variables' });
    expect(fieldsOf('LeadCreated')).toMatchObject({ phone_number: 'subject', variables: 'personal', secondary_contacts: 'personal' });
    expect(fieldsOf('CallOutcomeRecorded')).toMatchObject({ details: { transcript: 'retained:transcripts', recording_url: 'retained:recordings' } });
    expect(fieldsOf('CallAnalyzed')).toMatchObject({ transcript: 'retained:transcripts', evaluation: 'personal', variables: 'retained:variables' });
    expect(fieldsOf('UserRegistered')).toMatchObject({ webhook_secret: 'secret' });
    expect(fieldsOf('ToolCreated')).toMatchObject({ tool: { headers: 'secret' } });
  });

  /**
   * docs/privacy.md: a personal value that is not a number is sealed only under a person's key; with
   * none known it would be written in plain text, where no erasure reaches it. An event type with
   * personal values and no `subject` field of its own is listed here with where its person comes
   * from, so a new one fails until someone has said whose its values are.
   */
  it('say whose key seals the personal values of each type that names no subject of its own', () => {
    const whose: Record<string, string> = {
      IdempotentRequestAnswered: 'each record of the answer under the number it names; an answer naming none holds no one',
      CallOutcomeRecorded: "the call's stream: the number CallInitiated names",
      CallToolInvoked: "the call's stream",
      CallAnalyzed: "the call's stream",
      CallRecordingSaved: "the call's stream",
      LeadVariablesMerged: "the lead's stream: the number LeadCreated names",
      LeadPhoneNumberChanged: "a number, under its own key; the lead's stream",
      LeadCallStarted: "a number, under its own key; the lead's stream",
      LeadContactSkipped: "a number, under its own key; the lead's stream",
      NumbersAddedToDoNotCall: "the listed number's stream, its subject given by AddToDoNotCall",
      NumberRemovedFromDoNotCall: 'a number, under its own key',
      LeadImportRowsDone: "a refused row's message under the number it names; others name no one",
      LeadImportFinished: 'a reason quoting an unreadable row under the number it names; others name no one',
      WebhookRequested: 'the person the delivery is about, given by RequestWebhook; a campaign notification is about no one',
      WebhookAttemptFinished: "the delivery's stream (as WebhookRequested)",
      UserRegistered: "an account holder's email: not sealed (docs/privacy.md, Not yet)",
      OrganisationFounded: "an account holder's email: not sealed",
      MemberAdded: "an account holder's email: not sealed",
    };
    const namingNoSubject = declaredEventTypes().filter((type) => hasPersonalFields(type) && !Object.values(fieldsOf(type)!).includes('subject'));
    expect(namingNoSubject.sort()).toEqual(Object.keys(whose).sort());
  });
});
