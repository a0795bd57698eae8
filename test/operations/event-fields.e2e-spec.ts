import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { AppModule } from '../../src/app.module';
// Loaded by the EventStoreDB adapter only.
import '../../src/infrastructure/event-store/id-blocks';
import { declaredEventTypes, fieldsOf } from '../../src/shared/event-sourcing/event-fields';

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
});
