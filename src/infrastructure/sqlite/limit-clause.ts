/**
 * A LIMIT written into a statement's text rather than bound. SQLite plans with a bound LIMIT's
 * value and so marks the statement to be compiled again whenever that parameter is bound: a
 * statement with `LIMIT ?` is prepared anew at every run. Statements are kept by their text,
 * so a page size asked again finds its statement.
 */
export function limitClause(rows: number): string {
  if (!Number.isSafeInteger(rows) || rows < 0) throw new RangeError(`a row limit must be a whole number of rows, not ${rows}`);
  return `LIMIT ${rows}`;
}
