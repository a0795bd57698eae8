import Database from 'better-sqlite3';
import { LargestKeys } from './largest-keys';

describe('LargestKeys', () => {
  let db: Database.Database;
  let keys: LargestKeys;
  let committed: boolean;
  let othersCommitted: () => void;
  const insert = (id: string) => db.prepare('INSERT INTO rm_docs (id) VALUES (?)').run(id);

  beforeEach(() => {
    db = new Database(':memory:');
    db.exec('CREATE TABLE rm_docs (id TEXT PRIMARY KEY)');
    committed = true;
    keys = new LargestKeys(db, { onCommit: (listener) => (othersCommitted = listener), lookIfDue: () => undefined }, () => committed);
  });
  afterEach(() => db.close());

  it('calls absent an integer key above the largest stored, and no other', () => {
    insert('2');
    insert('10');
    insert('abc');
    expect(keys.surelyAbsent('rm_docs', '11')).toBe(true);
    expect(keys.surelyAbsent('rm_docs', '10')).toBe(false);
    expect(keys.surelyAbsent('rm_docs', '3')).toBe(false);
    expect(keys.surelyAbsent('rm_docs', 'abd')).toBe(false);
    expect(keys.surelyAbsent('rm_docs', '011')).toBe(false);
  });

  it('raises the largest with the store’s own inserts, without reading the table again', () => {
    insert('1');
    expect(keys.surelyAbsent('rm_docs', '5')).toBe(true);
    keys.inserted('rm_docs', '5');
    expect(keys.surelyAbsent('rm_docs', '5')).toBe(false);
    expect(keys.surelyAbsent('rm_docs', '6')).toBe(true);
  });

  it('reads the table again after another writer’s commit', () => {
    insert('1');
    expect(keys.surelyAbsent('rm_docs', '5')).toBe(true);
    insert('5');
    expect(keys.surelyAbsent('rm_docs', '5')).toBe(true);
    othersCommitted();
    expect(keys.surelyAbsent('rm_docs', '5')).toBe(false);
  });

  it('reads no table while writes are on their way to it: the file would lack them', () => {
    committed = false;
    insert('1');
    expect(keys.surelyAbsent('rm_docs', '5')).toBe(false);
    committed = true;
    expect(keys.surelyAbsent('rm_docs', '5')).toBe(true);
  });

  it('starts from nothing for an empty table', () => {
    expect(keys.surelyAbsent('rm_docs', '0')).toBe(true);
  });
});
