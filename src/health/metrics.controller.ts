import { Controller, Get, Headers, Res, UnauthorizedException } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import { AppConfig } from '../infrastructure/config/app-config';
import { Metrics } from '../infrastructure/metrics/metrics';

/** `GET /metrics`: Prometheus text (contract §16), behind METRICS_TOKEN when it is set. */
@Controller('metrics')
export class MetricsController {
  constructor(
    private readonly metrics: Metrics,
    private readonly config: AppConfig,
  ) {}

  @Get()
  async scrape(@Headers('authorization') authorization: string | undefined, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    if (this.config.metricsToken !== null && !sameText(authorization ?? '', `Bearer ${this.config.metricsToken}`)) {
      throw new UnauthorizedException();
    }
    reply.type(this.metrics.registry.contentType);
    return this.metrics.text();
  }
}

function sameText(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
