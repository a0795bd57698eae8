import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { LookupAddress, lookup } from 'node:dns';
import { Agent, fetch } from 'undici';
import { AppConfig } from '../config/app-config';
import { isPublicAddress, literalAddress } from '../../shared/target-address';

export const RESPONSE_BODY_LIMIT_BYTES = 64 * 1024;
const MAX_REDIRECTS = 3;

export interface OutboundRequest {
  url: string;
  method: string;
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
}

export interface OutboundResponse {
  status: number;
  /** The first 64 KiB of the answer, as text. */
  body: string;
  durationMs: number;
}

/** Why a request got no answer: a refused target, a timeout, or the network. */
export class OutboundFailure extends Error {
  constructor(
    readonly kind: 'refused' | 'timeout' | 'network',
    message: string,
    readonly durationMs = 0,
  ) {
    super(message);
    this.name = 'OutboundFailure';
  }
}

class RefusedTarget extends Error {}

/**
 * HTTP to addresses users configured (webhooks, mid-call tools). Only http and https;
 * unless ALLOW_PRIVATE_TARGETS is set, every address a connection would use is checked,
 * after DNS resolution, so a name pointing at 127.0.0.1 is refused like the literal, and
 * every redirect hop is checked again; a hop to another origin goes without the request's headers.
 */
@Injectable()
export class OutboundHttp implements OnModuleDestroy {
  private readonly agent: Agent;

  private readonly allowed: (address: string) => boolean;

  constructor(config: AppConfig, allowed?: (address: string) => boolean) {
    this.allowed = allowed ?? ((address) => config.allowPrivateTargets || isPublicAddress(address));
    this.agent = new Agent({
      connect: {
        lookup: (hostname, options, callback) =>
          lookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
            if (error) return callback(error, '', 0);
            const refused = addresses.find((a) => !this.allowed(a.address));
            if (refused) return callback(new RefusedTarget(`${hostname} resolves to ${refused.address}, which is not a public address`), '', 0);
            if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
            callback(null, addresses[0].address, addresses[0].family);
          }),
      },
    });
  }

  async onModuleDestroy(): Promise<void> {
    await this.agent.close();
  }

  async send(request: OutboundRequest): Promise<OutboundResponse> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const signal = AbortSignal.timeout(request.timeoutMs);
    let { url, method, body, headers } = request;
    try {
      for (let hop = 0; ; hop++) {
        this.checkUrl(url);
        const response = await fetch(url, { method, headers, body, dispatcher: this.agent, redirect: 'manual', signal });
        const location = response.headers.get('location');
        if (response.status >= 300 && response.status < 400 && location && hop < MAX_REDIRECTS) {
          await response.body?.cancel();
          const next = new URL(location, url);
          // The configured headers (a tool's bearer token) are the first origin's: never sent to another.
          if (next.origin !== new URL(url).origin) headers = undefined;
          url = next.toString();
          if (response.status !== 307 && response.status !== 308) [method, body] = ['GET', undefined];
          continue;
        }
        return { status: response.status, body: await cappedText(response.body), durationMs: elapsed() };
      }
    } catch (error) {
      throw this.describe(error, request.timeoutMs, elapsed());
    }
  }

  private checkUrl(url: string): void {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new RefusedTarget(`${url} is not a valid URL`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new RefusedTarget(`${parsed.protocol} URLs are not allowed`);
    const literal = literalAddress(parsed.hostname);
    if (literal && !this.allowed(literal)) throw new RefusedTarget(`${literal} is not a public address`);
  }

  private describe(error: unknown, timeoutMs: number, durationMs: number): OutboundFailure {
    for (let cause: unknown = error; cause; cause = (cause as { cause?: unknown }).cause) {
      if (cause instanceof RefusedTarget) return new OutboundFailure('refused', cause.message, durationMs);
      const name = (cause as Error).name;
      if (name === 'TimeoutError' || name === 'AbortError') return new OutboundFailure('timeout', `no answer within ${timeoutMs / 1000} s`, durationMs);
    }
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return new OutboundFailure('network', cause?.code ?? cause?.message ?? (error as Error).message, durationMs);
  }
}

async function cappedText(stream: ReadableStream<Uint8Array> | null): Promise<string> {
  if (!stream) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = stream.getReader();
  while (size < RESPONSE_BODY_LIMIT_BYTES) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
  }
  await reader.cancel().catch(() => undefined);
  return Buffer.concat(chunks).subarray(0, RESPONSE_BODY_LIMIT_BYTES).toString('utf8');
}
