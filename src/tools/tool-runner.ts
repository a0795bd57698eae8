import { Sealer } from '../shared/sealing/sealer';
import { Injectable } from '@nestjs/common';
import { OutboundFailure, OutboundHttp } from '../infrastructure/outbound/outbound-http';
import { parsedOrText } from '../shared/parsed-or-text';
import { ValidationFailed } from '../shared/validation/validation.pipe';
import { checkToolArguments } from './tool-arguments';
import { ToolSpec } from './tool.events';

/** docs/api.md's answer of a tool run; `error` says why there was no answer. */
export interface ToolRunResult {
  status_code: number | null;
  body: unknown;
  duration_ms: number;
  error?: string;
}

/**
 * Runs a mid-call tool: arguments checked against its schema (422 otherwise), sent as the
 * query string for GET and DELETE and as a JSON body otherwise, with the tool's headers
 * and timeout, through the outbound client that refuses private targets.
 */
@Injectable()
export class ToolRunner {
  constructor(
    private readonly http: OutboundHttp,
    private readonly sealer: Sealer,
  ) {}

  async run(tool: ToolSpec, args: unknown): Promise<ToolRunResult> {
    const errors = checkToolArguments(tool.schema, args ?? {});
    if (Object.keys(errors).length) throw new ValidationFailed(errors);
    const values = (args ?? {}) as Record<string, string | number | boolean>;
    const inQuery = tool.method === 'GET' || tool.method === 'DELETE';
    const url = new URL(tool.endpoint);
    if (inQuery) for (const [key, value] of Object.entries(values)) url.searchParams.append(key, String(value));
    // Header values are kept sealed (docs/privacy.md): opened only to be sent.
    const headers: Record<string, string> = Object.fromEntries(await Promise.all(tool.headers.map(async (h) => [h.name, await this.sealer.open(h.value)])));
    if (!inQuery) headers['content-type'] ??= 'application/json';
    try {
      const response = await this.http.send({
        url: url.toString(),
        method: tool.method,
        headers,
        body: inQuery ? undefined : JSON.stringify(values),
        timeoutMs: tool.timeout * 1000,
      });
      return { status_code: response.status, body: parsedOrText(response.body), duration_ms: response.durationMs };
    } catch (error) {
      if (!(error instanceof OutboundFailure)) throw error;
      return { status_code: null, body: null, duration_ms: error.durationMs, error: error.message };
    }
  }
}
