import { withNumbersMasked } from '../shared/phone';
import { DIAL_TIMEOUT_MS, DialRefused, DialUnanswered } from './dialer.port';

/** docs/real-calls.md: a runtime's 429 waits `Retry-After` seconds, or 60. */
export const CAPACITY_WAIT_MS = 60_000;

/** A runtime's API answering JSON, authorised by `authorization` (a bearer key, Basic credentials); each request ends in 10 s. */
export class RuntimeApi {
  constructor(
    readonly runtime: string,
    private readonly baseUrl: string,
    private readonly authorization: string,
    /** How request bodies are sent: JSON, or form-encoded (Twilio: a record, or pairs for a name given more than once). */
    private readonly bodies: 'json' | 'form' = 'json',
  ) {}

  /** The answer's JSON; a non-2xx answer is a DialRefused naming the status and the runtime's message (a 429 one for capacity). */
  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: {
          authorization: this.authorization,
          'content-type': this.bodies === 'json' ? 'application/json' : 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: body === undefined ? undefined : this.bodies === 'json' ? JSON.stringify(body) : new URLSearchParams(body as Array<[string, string]>).toString(),
        signal: AbortSignal.timeout(DIAL_TIMEOUT_MS),
        redirect: 'error',
      });
    } catch (error) {
      // Sent, perhaps placed: only a lookup can tell (docs/real-calls.md).
      if ((error as Error).name === 'TimeoutError') throw new DialUnanswered(`${this.runtime} did not answer within ${DIAL_TIMEOUT_MS / 1000} s`);
      throw new DialRefused(`${this.runtime} could not be reached`);
    }
    const text = await response.text();
    const json = parse(text);
    if (response.ok) return json as T;
    const reason = refusalReason(this.runtime, response.status, messageOf(json) ?? text.slice(0, 200));
    if (response.status === 429) throw new DialRefused(reason, retryAfterMs(response.headers.get('retry-after')));
    throw new DialRefused(reason);
  }
}

/**
 * A runtime's refusal as recorded (docs/real-calls.md): its status and message, any number the
 * message names masked: Twilio's name the number called (docs/privacy.md).
 */
export const refusalReason = (runtime: string, status: number, message: string) =>
  `${runtime} answered ${status}${message ? `: ${withNumbersMasked(message)}` : ''}`;

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function messageOf(json: unknown): string | null {
  if (json === null || typeof json !== 'object') return null;
  const message = (json as { message?: unknown; error?: unknown }).message ?? (json as { error?: unknown }).error;
  if (Array.isArray(message)) return message.join('; ');
  return typeof message === 'string' ? message : null;
}

/** `Retry-After` in seconds (or an HTTP date); 60 s when absent or unreadable. */
export function retryAfterMs(header: string | null): number {
  if (!header) return CAPACITY_WAIT_MS;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? CAPACITY_WAIT_MS : Math.max(0, at - Date.now());
}
