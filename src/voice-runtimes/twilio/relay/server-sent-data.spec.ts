import { Readable } from 'node:stream';
import { serverSentData } from './server-sent-data';

const read = async (...pieces: string[]) => {
  const out: string[] = [];
  for await (const data of serverSentData(Readable.from(pieces.map((p) => Buffer.from(p))))) out.push(data);
  return out;
};

describe('server-sent data', () => {
  it('given events split anywhere, even inside a CRLF: each event whole, in order', async () => {
    const text = 'data: {"a":1}\r\n\r\ndata: {"b":2}\n\ndata: [DONE]\n\n';
    expect(await read(text)).toEqual(['{"a":1}', '{"b":2}', '[DONE]']);
    for (let cut = 1; cut < text.length; cut++) expect(await read(text.slice(0, cut), text.slice(cut))).toEqual(['{"a":1}', '{"b":2}', '[DONE]']);
  });

  it('given comments, other fields, several data lines and CR endings: the data joined by LF, the rest skipped', async () => {
    expect(await read(': keep-alive\n\nevent: x\nid: 3\ndata: one\ndata:two\n\n', 'data: three\r\rdata: last')).toEqual(['one\ntwo', 'three', 'last']);
  });

  it('given an event past a megabyte, when read: refused, not buffered', async () => {
    await expect(read(`data: ${'x'.repeat(1024 * 1024 + 1)}`)).rejects.toThrow();
  });
});
