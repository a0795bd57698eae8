import { ContextSlot, disableContextSlots } from './context-slot';

const later = <T>(value: () => T) => new Promise<T>((resolve) => setTimeout(() => resolve(value()), 1));

describe('ContextSlot', () => {
  const caller = new ContextSlot<string>('caller');
  const batch = new ContextSlot<number>('batch');

  it('is seen by its work and everything the work starts, and not outside it', async () => {
    const seen = await caller.run('ann', async () => {
      await Promise.resolve();
      return [caller.get(), await later(() => caller.get())];
    });
    expect(seen).toEqual(['ann', 'ann']);
    expect(caller.get()).toBeUndefined();
  });

  it("keeps the other slots as they were: one slot's run neither sets nor drops another's", async () => {
    const seen = await caller.run('ann', () =>
      batch.run(7, async () => {
        const inner = await caller.run('bob', async () => [caller.get(), batch.get()]);
        return [...inner, caller.get(), batch.get()];
      }),
    );
    expect(seen).toEqual(['bob', 7, 'ann', 7]);
    expect(await batch.run(8, async () => caller.get())).toBeUndefined();
  });

  it('keeps concurrent works apart', async () => {
    const both = await Promise.all(['ann', 'bob'].map((name) => caller.run(name, () => later(() => caller.get()))));
    expect(both).toEqual(['ann', 'bob']);
  });

  it('reads nothing once the slots are turned off, until the next run', async () => {
    await caller.run('ann', async () => {
      disableContextSlots();
      expect(caller.get()).toBeUndefined();
    });
    expect(caller.run('bob', () => caller.get())).toBe('bob');
  });
});
