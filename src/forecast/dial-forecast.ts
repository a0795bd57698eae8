import { DialRules, nextDialInstant } from '../shared/compliance/dial-window';
import { everyNth, runToEnd } from '../shared/yield-to-io';

/** Why a lead will never be dialed (docs/forecast.md). */
export type NeverCallableReason = 'do_not_call' | 'no_timezone' | 'window_never_opens';

export interface ForecastContact {
  zones: readonly string[];
  /** On the organisation's do-not-call list. */
  listed: boolean;
}

export interface ForecastLead {
  id: number;
  phone_number: string;
  status: 'created' | 'completed' | 'reached-max-retries';
  /** The primary first, then the secondary contacts in their order. */
  contacts: readonly ForecastContact[];
  /** Rounds already used. */
  attempts: number;
  /** When it is next due (ms since the epoch); a lead due earlier is due at the forecast's start. */
  dueAt: number;
}

export interface ForecastSettings {
  rules: DialRules;
  maxRetries: number;
  retryDelaySeconds: number;
  maxConcurrentCalls: number;
  /** Pacing; null: none. */
  maxCallsPerMinute: number | null;
}

export interface Assumptions {
  /** The share of dials a person answers. */
  answerRate: number;
  averageCallSeconds: number;
}

export interface LeadForecast {
  lead_id: number;
  phone_number: string;
  status: ForecastLead['status'];
  next_dial_at: string | null;
  expected_attempts: number;
  reason: NeverCallableReason | null;
}

export interface DialForecast {
  first_dial_at: string | null;
  ends_at: string | null;
  leads: { total: number; callable: number; never_callable: { total: number; by_reason: Partial<Record<NeverCallableReason, number>> } };
  by_day: Array<{ date: string; dials: number }>;
  /** Each lead's forecast, made when asked (the summary needs none), in steps as `forecastSteps`. */
  perLead: () => Generator<void, LeadForecast[]>;
}

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** How much of the forecast is done between two of its steps (`forecastSteps`): a few milliseconds' work. */
const LEADS_A_STEP = 1000;
const DIALS_A_STEP = 5000;

/** The first instant at or after `at` (ms) the rules allow a number of these zones to be dialed, or null. */
type Allowed = (contact: ForecastContact, at: number) => number | null;

/**
 * `nextDialInstant`, asked once per zones and instant: a campaign's leads share a few zones and
 * their dials the same instants, so a forecast of 100,000 leads asks the rules a few thousand times.
 */
function allowedBy(rules: DialRules): Allowed {
  const byZones = new Map<string, Map<number, number | null>>();
  return (contact, at) => {
    const zones = contact.zones.length === 1 ? contact.zones[0] : contact.zones.join('\u0000');
    let known = byZones.get(zones);
    if (!known) byZones.set(zones, (known = new Map()));
    let answer = known.get(at);
    if (answer === undefined) {
      answer = nextDialInstant(rules, { zones: contact.zones, doNotCall: false }, new Date(at))?.getTime() ?? null;
      known.set(at, answer);
    }
    return answer;
  };
}

/** A dial expected to happen, with the chance it does (the rounds and contacts before it reached nobody). */
interface ExpectedDial {
  lead: number;
  /** The lead's place among the forecast's leads. */
  place: number;
  contact: ForecastContact;
  at: number;
  weight: number;
  /** The round's first dial: its weight is the chance the round is made at all. */
  opensRound: boolean;
}

/** Why none of the lead's contacts can ever be dialed, or null when one can at `from`'s first allowed instant. */
function neverCallable(rules: DialRules, allowed: Allowed, lead: ForecastLead, from: number): NeverCallableReason | null {
  const open = lead.contacts.filter((contact) => !contact.listed);
  if (!open.length) return 'do_not_call';
  if (open.some((contact) => allowed(contact, from) !== null)) return null;
  const zoneNeeded = rules.quiet_hours !== null || rules.holidays.length > 0 || rules.window_timezone === 'lead';
  return zoneNeeded && open.every((contact) => contact.zones.length === 0) ? 'no_timezone' : 'window_never_opens';
}

/**
 * The dials a lead is expected to take, round by round, each contact after the one before it
 * (a call's length apart), each round `retryDelaySeconds` after the last call of the one before,
 * every dial at the first instant the dial rules allow: the rules the dialer applies, through the
 * same function (`nextDialInstant`).
 */
function expectedDials(
  settings: ForecastSettings,
  allowed: Allowed,
  assumptions: Assumptions,
  lead: ForecastLead,
  place: number,
  from: number,
  dials: ExpectedDial[],
): void {
  const open = lead.contacts.filter((contact) => !contact.listed);
  const missed = 1 - assumptions.answerRate;
  const callMs = assumptions.averageCallSeconds * 1000;
  let roundStart = Math.max(from, lead.dueAt);
  let reachedNobody = 1;
  for (let round = lead.attempts; round < 1 + settings.maxRetries; round++) {
    let at = roundStart;
    let unanswered = reachedNobody;
    for (const contact of open) {
      const next = allowed(contact, at);
      if (next === null) continue;
      dials.push({ lead: lead.id, place, contact, at: next, weight: unanswered, opensRound: unanswered === reachedNobody });
      at = next + callMs;
      unanswered *= missed;
    }
    // No contact could be dialed, or someone surely answered: no later round.
    if (unanswered === reachedNobody || unanswered === 0) break;
    reachedNobody = unanswered;
    roundStart = at + settings.retryDelaySeconds * 1000;
  }
}

/**
 * The dials by their instant, those of one instant by their leads' ids. A campaign's dials fall on
 * few instants, each instant's made in the leads' order (by id, as they are read): few comparisons.
 */
function* inTimeOrder(dials: readonly ExpectedDial[]): Generator<void, ExpectedDial[]> {
  const step = everyNth(DIALS_A_STEP);
  const byInstant = new Map<number, ExpectedDial[]>();
  for (const dial of dials) {
    if (step()) yield;
    const same = byInstant.get(dial.at);
    if (same) same.push(dial);
    else byInstant.set(dial.at, [dial]);
  }
  const ordered: ExpectedDial[] = [];
  for (const at of [...byInstant.keys()].sort((a, b) => a - b)) {
    for (const dial of byInstant.get(at)!.sort((a, b) => a.lead - b.lead)) {
      if (step()) yield;
      ordered.push(dial);
    }
  }
  return ordered;
}

/**
 * The expected dials placed minute by minute within the campaign's capacity (its concurrency over
 * the call length, its pacing): a dial finding its minute full goes to the next minute that has
 * room and that the rules allow. Full minutes are skipped through links to the next open one.
 */
function* placed(dials: ExpectedDial[], settings: ForecastSettings, allowed: Allowed, assumptions: Assumptions): Generator<void, ExpectedDial[]> {
  const byConcurrency = (settings.maxConcurrentCalls * 60) / Math.max(1, assumptions.averageCallSeconds);
  const perMinute = Math.min(byConcurrency, settings.maxCallsPerMinute ?? Infinity);
  const used = new Map<number, number>();
  const nextOpen = new Map<number, number>();
  const open = (minute: number): number => {
    let m = minute;
    const path: number[] = [];
    while (nextOpen.has(m)) {
      path.push(m);
      m = nextOpen.get(m)!;
    }
    for (const passed of path) nextOpen.set(passed, m);
    return m;
  };
  const out: ExpectedDial[] = [];
  const step = everyNth(DIALS_A_STEP);
  for (const dial of yield* inTimeOrder(dials)) {
    if (step()) yield;
    let at: number | null = dial.at;
    for (;;) {
      const minute = open(Math.floor(at / MINUTE));
      if (minute * MINUTE <= at) break;
      // Moved past a full minute: the rules are asked again from there (the window may have closed).
      at = allowed(dial.contact, minute * MINUTE);
      if (at === null || Math.floor(at / MINUTE) === minute) break;
    }
    if (at === null) continue;
    const minute = Math.floor(at / MINUTE);
    const total = (used.get(minute) ?? 0) + dial.weight;
    used.set(minute, total);
    if (total >= perMinute) nextOpen.set(minute, minute + 1);
    dial.at = at;
    out.push(dial);
  }
  return out;
}

/** docs/forecast.md: when each lead will be dialed, how many dials each day brings, when the campaign ends, who never will be. */
export function forecastDials(settings: ForecastSettings, assumptions: Assumptions, leads: readonly ForecastLead[], from: Date): DialForecast {
  return runToEnd(forecastSteps(settings, assumptions, leads, from));
}

/**
 * `forecastDials` in steps of a few milliseconds each: a forecast of a large campaign takes
 * seconds, and a caller serving other work (calls in progress) runs it a step at a time.
 */
export function* forecastSteps(
  settings: ForecastSettings,
  assumptions: Assumptions,
  leads: readonly ForecastLead[],
  from: Date,
): Generator<void, DialForecast> {
  const reasons = new Map<number, NeverCallableReason>();
  const dials: ExpectedDial[] = [];
  const allowed = allowedBy(settings.rules);
  let pending = 0;
  const leadStep = everyNth(LEADS_A_STEP);
  for (const [place, lead] of leads.entries()) {
    if (lead.status !== 'created') continue;
    if (leadStep()) yield;
    pending++;
    const reason = neverCallable(settings.rules, allowed, lead, Math.max(from.getTime(), lead.dueAt));
    if (reason) reasons.set(lead.id, reason);
    else expectedDials(settings, allowed, assumptions, lead, place, from.getTime(), dials);
  }
  const scheduled = yield* placed(dials, settings, allowed, assumptions);
  const days = new Map<number, number>();
  let firstAt = Infinity;
  let lastAt = -Infinity;
  const dialStep = everyNth(DIALS_A_STEP);
  for (const dial of scheduled) {
    if (dialStep()) yield;
    firstAt = Math.min(firstAt, dial.at);
    lastAt = Math.max(lastAt, dial.at);
    const day = Math.floor(dial.at / DAY);
    days.set(day, (days.get(day) ?? 0) + dial.weight);
  }
  const byReason: Partial<Record<NeverCallableReason, number>> = {};
  for (const reason of reasons.values()) byReason[reason] = (byReason[reason] ?? 0) + 1;
  const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());
  return {
    first_dial_at: scheduled.length ? iso(firstAt) : null,
    ends_at: scheduled.length ? iso(lastAt + assumptions.averageCallSeconds * 1000) : null,
    leads: { total: leads.length, callable: pending - reasons.size, never_callable: { total: reasons.size, by_reason: byReason } },
    by_day: [...days].sort(([a], [b]) => a - b).map(([day, dials]) => ({ date: new Date(day * DAY).toISOString().slice(0, 10), dials: Math.round(dials) })),
    *perLead() {
      const step = everyNth(DIALS_A_STEP);
      // By the leads' places: a million leads' answers filled without a map growing step by step.
      const first = new Float64Array(leads.length).fill(Infinity);
      const expected = new Float64Array(leads.length);
      for (const dial of scheduled) {
        if (step()) yield;
        first[dial.place] = Math.min(first[dial.place], dial.at);
        if (dial.opensRound) expected[dial.place] += dial.weight;
      }
      const perLead: LeadForecast[] = [];
      for (const [place, lead] of leads.entries()) {
        if (step()) yield;
        perLead.push({
          lead_id: lead.id,
          phone_number: lead.phone_number,
          status: lead.status,
          next_dial_at: first[place] === Infinity ? null : iso(first[place]),
          expected_attempts: Math.round(expected[place] * 100) / 100,
          reason: reasons.get(lead.id) ?? null,
        });
      }
      return perLead;
    },
  };
}
