import { isoMicros, sqlDateTime } from './formats';

describe('timestamp formats', () => {
  it('renders ISO 8601 with microseconds and Z', () => {
    expect(isoMicros('2025-01-31T12:00:00.123Z')).toBe('2025-01-31T12:00:00.123000Z');
  });
  it('renders the lead and call format in UTC', () => {
    expect(sqlDateTime('2025-01-31T12:00:05.999Z')).toBe('2025-01-31 12:00:05');
  });
});
