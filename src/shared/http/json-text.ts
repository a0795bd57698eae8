import type { FastifyReply } from 'fastify';

/**
 * Lists sent from stored views: the documents' JSON text is joined into the answer as it
 * is, instead of being parsed and serialised again.
 */
export class JsonText {
  private constructor(readonly text: string) {}

  /** An array of values already serialised. */
  static array(items: string[]): JsonText {
    return new JsonText(`[${items.join(',')}]`);
  }

  /** An object with its members plus one whose value is already serialised. */
  static object(members: object, key: string, raw: JsonText): JsonText {
    const rest = JSON.stringify(members).slice(1, -1);
    return new JsonText(`{${JSON.stringify(key)}:${raw.text}${rest ? `,${rest}` : ''}}`);
  }

  /** An array of serialised objects, each given one more member at its end (serialised once for all). */
  static arrayWithMember(objects: string[], key: string, value: unknown): JsonText {
    const member = `${JSON.stringify(key)}:${JSON.stringify(value)}}`;
    return JsonText.array(objects.map((object) => (object.length > 2 ? `${object.slice(0, -1)},${member}` : `{${member}`)));
  }

  send(reply: FastifyReply): string {
    reply.type('application/json; charset=utf-8');
    return this.text;
  }
}
