import { AsyncLocalStorage } from 'node:async_hooks';

type Frame = Readonly<Record<symbol, unknown>>;

/**
 * Every slot lives in this one storage. Node 20 writes each AsyncLocalStorage's own property on
 * every promise made; a second one, beside async_hooks' two, outgrows a promise's first property
 * store, and every promise then takes another allocation: about 8 % of a lead creation's main
 * thread (bench/README.md).
 */
const frames = new AsyncLocalStorage<Frame>();

/**
 * A value the work running now, and everything it starts, is run with (a request's caller, the
 * read store's batch), as an AsyncLocalStorage of its own would keep it: `run` sets this slot for
 * its work and keeps every other slot as it was.
 */
export class ContextSlot<T> {
  private readonly key: symbol;

  constructor(name: string) {
    this.key = Symbol(name);
  }

  get(): T | undefined {
    return frames.getStore()?.[this.key] as T | undefined;
  }

  run<R>(value: T, work: () => R): R {
    return frames.run({ ...frames.getStore(), [this.key]: value }, work);
  }
}

/**
 * Every slot reads undefined until the next `run` anywhere, and Node's promise hooks go off while
 * no other storage is in use: for a process that reads the whole log once (a rebuild) and keeps
 * what it needs elsewhere.
 */
export const disableContextSlots = (): void => frames.disable();
