import { Readable } from 'node:stream';
import { headerIn, peekCsvHeader } from './csv-header';

const read = async (body: Readable) => {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
};

describe("a CSV's header row, read before the import is made (docs/imports.md)", () => {
  it.each([
    ['phone_number,name\n+12015550100,Ann\n', ['phone_number', 'name']],
    ['\uFEFF\n\n phone_number ,"first, name"\n+1', ['phone_number', 'first, name']],
    ['phone_number,name\r\n+1', ['phone_number', 'name']],
    ['"a\nb",phone_number\nx', ['a\nb', 'phone_number']],
    ['name,email\n', ['name', 'email']],
  ])('reads the header of %j', (text, header) => {
    expect(headerIn(text, false)).toEqual(header);
  });

  it('waits for more while the header row is not complete, and takes the whole of a body that ended', () => {
    expect(headerIn('phone_num', false)).toBeUndefined();
    expect(headerIn('"a\nb', false)).toBeUndefined();
    expect(headerIn('phone_number', true)).toEqual(['phone_number']);
  });

  it('leaves to the import a header it cannot read: a quote never closed, or no row in the first 64 KiB', () => {
    expect(headerIn('"phone_number\n+12015550952\n', true)).toBeNull();
    expect(headerIn('x'.repeat(65 * 1024), false)).toBeNull();
  });

  it('answers the whole body again, chunks read first, however it was cut', async () => {
    const text = 'name,phone_number\n' + Array.from({ length: 2000 }, (_, i) => `n${i},+1201555${String(i).padStart(4, '0')}`).join('\n');
    const chunks = text.match(/[\s\S]{1,7}/g)!;
    const peeked = await peekCsvHeader(Readable.from(chunks.map((c) => Buffer.from(c))));
    expect(peeked.header).toEqual(['name', 'phone_number']);
    expect(await read(peeked.body)).toBe(text);
  });

  it('passes on the failure of a body cut short', async () => {
    const body = new Readable({ read() {} });
    body.push(Buffer.from('phone_number\n+12015550100\n'));
    const peeked = await peekCsvHeader(body);
    body.destroy(new Error('aborted'));
    await expect(read(peeked.body)).rejects.toThrow('aborted');
  });
});
