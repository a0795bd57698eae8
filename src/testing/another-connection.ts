import Database from 'better-sqlite3';

/** What a second connection, not waiting on locks, reads of a table: its row count, or the error code it gets. */
export function countFromAnotherConnection(file: string, table: string): number | string {
  const other = new Database(file, { timeout: 0 });
  try {
    return other.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
  } catch (error) {
    return (error as { code: string }).code;
  } finally {
    other.close();
  }
}
