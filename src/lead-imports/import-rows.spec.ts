import { CsvError } from 'csv-parse';
import { Readable } from 'node:stream';
import { ImportRow, MAX_ROW_BYTES, ROW_TOO_LARGE, UNREADABLE_ROW, csvProblem, importRows } from './import-rows';

const chunked = (text: string, chunk: number) =>
  Array.from({ length: Math.ceil(text.length / chunk) }, (_, i) => Buffer.from(text.slice(i * chunk, (i + 1) * chunk)));

const rowsOf = async (format: 'csv' | 'ndjson' | 'text', text: string, chunk = 7): Promise<ImportRow[]> => {
  // Fed in small chunks, as a body arrives: a quoted line break or a BOM may straddle two.
  const out: ImportRow[] = [];
  for await (const row of importRows(format, Readable.from(chunked(text, chunk)))) out.push(row);
  return out;
};

describe('import rows', () => {
  it('reads CSV: header names the fields, other columns are string variables, secondary numbers in their order, blank lines not counted', async () => {
    const csv =
      '\uFEFFphone_number , city,secondary_phone_number_2,secondary_phone_number_1,timezone\r\n\r\n+12015550101,"New York, NY",+12015550203,+12015550202,\r\n+12015550102,,,,Europe/Berlin\r\n';
    expect(await rowsOf('csv', csv)).toEqual([
      {
        row: 1,
        body: {
          phone_number: '+12015550101',
          variables: { city: 'New York, NY' },
          secondary_contacts: [{ phone_number: '+12015550202' }, { phone_number: '+12015550203' }],
        },
      },
      { row: 2, body: { phone_number: '+12015550102', timezone: 'Europe/Berlin', variables: { city: '' } } },
    ]);
  });

  it('keeps quoted quotes and line breaks in a cell, and takes short and long rows', async () => {
    const rows = await rowsOf('csv', 'phone_number,note\n+1,"a ""b""\nc"\n+2\n+3,x,extra\n', 3);
    expect(rows).toEqual([
      { row: 1, body: { phone_number: '+1', variables: { note: 'a "b"\nc' } } },
      { row: 2, body: { phone_number: '+2' } },
      { row: 3, body: { phone_number: '+3', variables: { note: 'x' } } },
    ]);
  });

  it('keeps columns named like Object’s own keys as variables, __proto__ included', async () => {
    const [row] = await rowsOf('csv', 'phone_number,__proto__,constructor,toString\n+1,a,b,c\n');
    const variables = 'body' in row ? (row.body.variables as object) : null;
    expect(Object.entries(variables!)).toEqual([
      ['__proto__', 'a'],
      ['constructor', 'b'],
      ['toString', 'c'],
    ]);
    expect(Object.getPrototypeOf(variables)).toBe(Object.prototype);
  });

  it('fails on a quote never closed, with csv-parse’s code', async () => {
    await expect(rowsOf('csv', 'phone_number\n"+1\n')).rejects.toMatchObject({ code: expect.stringMatching(/^CSV_/) });
  });

  it.each([
    ['a quote opening mid-field', 'phone_number\n+1\n+2\nsays a"b,c\n+3\n', 'INVALID_OPENING_QUOTE'],
    ['a quote never closed', 'phone_number\n+1\n+2\n"+3\n+4\n', 'CSV_QUOTE_NOT_CLOSED'],
    ['text after a closing quote', 'phone_number\n+1\n+2\n"+3"x\n+4\n', 'CSV_INVALID_CLOSING_QUOTE'],
  ])('hands on every row before %s, in one chunk or many, then that row refused, then fails with csv-parse’s error', async (_name, csv, code) => {
    for (const chunk of [csv.length, 5, 1]) {
      const rows: ImportRow[] = [];
      const reading = (async () => {
        for await (const row of importRows('csv', Readable.from([...chunked(csv, chunk)]))) rows.push(row);
      })();
      await expect(reading).rejects.toBeInstanceOf(CsvError);
      await expect(reading).rejects.toMatchObject({ code });
      expect(rows).toEqual([
        { row: 1, body: { phone_number: '+1' } },
        { row: 2, body: { phone_number: '+2' } },
        { row: 3, unreadable: expect.stringMatching(new RegExp(`^${UNREADABLE_ROW} .*line \\d`)) },
      ]);
    }
  });

  it('refuses a row it cannot read with what csv-parse found and where, never the piece of the row csv-parse quotes', async () => {
    const quoted = 'phone_number,name\n+1,Zelda\n+2,Quok"kafield\n';
    const closing = 'phone_number,name\n+1,Zelda\n+2,"Quokka"field\n';
    for (const [csv, problem] of [
      [quoted, 'Invalid Opening Quote at line 3'],
      [closing, 'Invalid Closing Quote at line 3'],
    ]) {
      const rows: ImportRow[] = [];
      await expect(
        (async () => {
          for await (const row of importRows('csv', Readable.from([csv]))) rows.push(row);
        })(),
      ).rejects.toBeInstanceOf(CsvError);
      expect(rows).toEqual([
        { row: 1, body: { phone_number: '+1', variables: { name: 'Zelda' } } },
        { row: 2, unreadable: `${UNREADABLE_ROW} ${problem}` },
      ]);
    }
  });

  it('names a parser message not in its `Title: words` form by its code alone', () => {
    expect(csvProblem(new CsvError('CSV_INVALID_CLOSING_QUOTE', 'odd words quoting "Quokkafield"', {} as ConstructorParameters<typeof CsvError>[2]))).toBe(
      'CSV_INVALID_CLOSING_QUOTE',
    );
  });

  it('refuses a CSV record past 1 MiB as unreadable, holding no more of it, after the rows before it', async () => {
    const csv = `phone_number,note\n+1,a\n+2,"${'x'.repeat(MAX_ROW_BYTES)}"\n+3,c\n`;
    const rows: ImportRow[] = [];
    await expect(
      (async () => {
        for await (const row of importRows('csv', Readable.from(chunked(csv, 64 * 1024)))) rows.push(row);
      })(),
    ).rejects.toMatchObject({ code: 'CSV_MAX_RECORD_SIZE' });
    expect(rows).toEqual([
      { row: 1, body: { phone_number: '+1', variables: { note: 'a' } } },
      { row: 2, unreadable: expect.stringMatching(new RegExp(`^${UNREADABLE_ROW} Max Record Size`)) },
    ]);
  });

  it('refuses an NDJSON line past 1 MiB, holding no more of it, and reads the lines after it', async () => {
    const long = JSON.stringify({ phone_number: '+2', variables: { note: 'x'.repeat(MAX_ROW_BYTES) } });
    const text = `{"phone_number":"+1"}\r\n${long}\n{"phone_number":"+3"}`;
    expect(await rowsOf('ndjson', text, 64 * 1024)).toEqual([
      { row: 1, body: { phone_number: '+1' } },
      { row: 2, unreadable: ROW_TOO_LARGE },
      { row: 3, body: { phone_number: '+3' } },
    ]);
  });

  it('reads NDJSON split anywhere, a character’s bytes or the BOM’s included', async () => {
    const text = '\uFEFF{"phone_number":"+1","variables":{"city":"Zürich 😀"}}\n\n{"phone_number":"+2"}\n';
    for (const chunk of [1, 2, 3, 5]) {
      const parts = [...Buffer.from(text)].map((byte) => Buffer.from([byte]));
      const grouped = Array.from({ length: Math.ceil(parts.length / chunk) }, (_, i) => Buffer.concat(parts.slice(i * chunk, (i + 1) * chunk)));
      const rows: ImportRow[] = [];
      for await (const row of importRows('ndjson', Readable.from(grouped))) rows.push(row);
      expect(rows).toEqual([
        { row: 1, body: { phone_number: '+1', variables: { city: 'Zürich 😀' } } },
        { row: 3, body: { phone_number: '+2' } },
      ]);
    }
  });

  it('reads NDJSON by line, CRLF or LF, passing over blank lines, naming lines that are not JSON objects', async () => {
    const text = '\uFEFF{"phone_number":"+1"}\r\n\r\n{"phone_number":\n[1]\nnull\n{"phone_number":"+2","variables":{"a":"b"}}';
    expect(await rowsOf('ndjson', text)).toEqual([
      { row: 1, body: { phone_number: '+1' } },
      { row: 3, unreadable: 'Malformed JSON body.' },
      { row: 4, unreadable: 'The request body must be a JSON object.' },
      { row: 5, unreadable: 'The request body must be a JSON object.' },
      { row: 6, body: { phone_number: '+2', variables: { a: 'b' } } },
    ]);
  });
});

describe('import rows of plain text', () => {
  it('reads one number a line, trimmed, numbered by line; blank lines passed over; a line past 1 MiB refused unheld', async () => {
    const long = 'x'.repeat(MAX_ROW_BYTES + 1);
    expect(await rowsOf('text', `\uFEFF+12015550101\r\n\n  +12015550102 \n${long}\nnope`)).toEqual([
      { row: 1, body: { phone_number: '+12015550101' } },
      { row: 3, body: { phone_number: '+12015550102' } },
      { row: 4, unreadable: ROW_TOO_LARGE },
      { row: 5, body: { phone_number: 'nope' } },
    ]);
  });
});

describe('import rows of a body that fails', () => {
  for (const format of ['csv', 'ndjson'] as const) {
    it(`${format}: the body's failure fails the rows, never goes unheard`, async () => {
      const body = new Readable({ read() {} });
      body.push(format === 'csv' ? 'phone_number\n+1\n' : '{"phone_number":"+1"}\n');
      const read: number[] = [];
      setTimeout(() => body.destroy(new Error('upload cut short')), 20);
      await expect(
        (async () => {
          for await (const row of importRows(format, body)) read.push(row.row);
        })(),
      ).rejects.toThrow('upload cut short');
      expect(read.length).toBeLessThanOrEqual(1);
    });
  }
});
