import { CallSpec } from '../calls/call.events';
import { callSpec } from '../testing/call.fixture';
import { CallPlacer } from './call-placer';
import { DialQueue } from './dial-queue';
import { Dialer } from '../voice-runtimes/dialer.port';

/** A placer whose dials stay on the wire until the spec lets each go. */
class HeldPlacer {
  readonly sent: number[] = [];
  private readonly release = new Map<number, () => void>();
  place(callId: number): Promise<void> {
    this.sent.push(callId);
    return new Promise((resolve) => this.release.set(callId, resolve));
  }
  answer(callId: number): Promise<void> {
    this.release.get(callId)!();
    return new Promise((r) => setImmediate(r));
  }
}

const dialerWithLimit = (limit: number | null) => ({ maxOpenDials: limit }) as unknown as Dialer;
const spec = (user: number): CallSpec => callSpec({ user_id: user, assistant_id: 1 });

describe('the dials of a process (docs/dialing.md: in parallel, fair across users)', () => {
  it('sends every dial at once when the provider sets no limit: none waits on another', () => {
    const placer = new HeldPlacer();
    const queue = new DialQueue(placer as unknown as CallPlacer, dialerWithLimit(null));
    for (let id = 1; id <= 50; id++) queue.add(id, spec(id % 2));
    expect(placer.sent).toHaveLength(50);
    expect(queue.open).toBe(50);
  });

  it("takes each user's waiting dials in turn under the provider's limit, so one user's many wait behind no one else's few", async () => {
    const placer = new HeldPlacer();
    const queue = new DialQueue(placer as unknown as CallPlacer, dialerWithLimit(2));
    for (const id of [1, 2, 3, 4, 5, 6]) queue.add(id, spec(1));
    for (const id of [7, 8]) queue.add(id, spec(2));
    expect(placer.sent).toEqual([1, 2]);
    await placer.answer(1);
    await placer.answer(2);
    expect(placer.sent).toEqual([1, 2, 3, 7]);
    await placer.answer(7);
    await placer.answer(3);
    expect(placer.sent).toEqual([1, 2, 3, 7, 4, 8]);
    expect(queue.open).toBe(2);
  });

  it('holds a call once: a second add while it waits or is on the wire is refused, and allowed once it is done', async () => {
    const placer = new HeldPlacer();
    const queue = new DialQueue(placer as unknown as CallPlacer, dialerWithLimit(1));
    expect(queue.add(1, spec(1))).toBe(true);
    expect(queue.add(2, spec(1))).toBe(true);
    expect(queue.add(1, spec(1))).toBe(false);
    expect(queue.add(2, spec(1))).toBe(false);
    expect(queue.has(2)).toBe(true);
    await placer.answer(1);
    expect(queue.has(1)).toBe(false);
    expect(queue.add(1, spec(1))).toBe(true);
  });

  it('stops taking dials at shutdown, drops those waiting (the resend sweep owns them) and waits for those on the wire', async () => {
    const placer = new HeldPlacer();
    const queue = new DialQueue(placer as unknown as CallPlacer, dialerWithLimit(1));
    queue.add(1, spec(1));
    queue.add(2, spec(1));
    let stopped = false;
    const stopping = queue.onModuleDestroy().then(() => (stopped = true));
    await new Promise((r) => setImmediate(r));
    expect(stopped).toBe(false);
    await placer.answer(1);
    await stopping;
    expect(placer.sent).toEqual([1]);
    expect(queue.add(3, spec(1))).toBe(false);
  });
});
