import { parentPort, workerData } from 'node:worker_threads';
import { declareFields, FieldDeclaration } from '../../shared/event-sourcing/event-fields';
import { MasterKey } from '../../shared/sealing/master-keys';
import { Sealer } from '../../shared/sealing/sealer';
import { SqliteEventStore } from '../event-store/sqlite-event-store';
import { OpeningEventStore } from './opening-event-store';
import { SqliteKeyStore } from './sqlite-key-store';

/** What `OpenedReadAhead` hands the thread at its start. */
export interface OpenedReadsSetup {
  eventsFile: string;
  keysFile: string;
  masters: MasterKey[];
  /** Every declared event type's fields (docs/privacy.md), as the starting thread declared them. */
  fields: Array<[string, Readonly<Record<string, FieldDeclaration>>]>;
}

/**
 * A thread that reads the embedded log in position order and opens its personal values under
 * keys it reads itself (its own connections, its own key cache): what it answers is what
 * `OpeningEventStore.readAll` answers on the main thread.
 */
async function serve(setup: OpenedReadsSetup): Promise<void> {
  declareFields(Object.fromEntries(setup.fields) as never);
  const keys = new SqliteKeyStore(setup.keysFile);
  const masters = setup.masters.map((master) => ({ id: master.id, key: Buffer.from(master.key) }));
  // Each value of the log is read once here: none is remembered (a tenth of this thread's work).
  const sealer = new Sealer(keys, masters, () => new Date(), false);
  await sealer.start();
  const events = new OpeningEventStore(new SqliteEventStore(setup.eventsFile), sealer);
  const handle = async (message: { id: number; after: number; max: number } | 'close') => {
    if (message === 'close') {
      await events.close();
      await keys.close();
      parentPort!.close();
      return;
    }
    try {
      parentPort!.postMessage({ id: message.id, events: await events.readAll(message.after, message.max) });
    } catch (error) {
      parentPort!.postMessage({ id: message.id, error: (error as Error).message });
    }
  };
  // One message at a time, in their order: a batch is opened after the one before it (erasures between them seen).
  let turn = Promise.resolve();
  parentPort!.on('message', (message: Parameters<typeof handle>[0]) => (turn = turn.then(() => handle(message))));
  parentPort!.postMessage({ ready: true });
}

serve(workerData as OpenedReadsSetup).catch((error: Error) => parentPort!.postMessage({ failed: error.message }));
