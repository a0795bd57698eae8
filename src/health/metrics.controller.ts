import { Controller, Get, Headers, Res, UnauthorizedException } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { isSameSecret } from '../shared/signature';
import { AppConfig } from '../infrastructure/config/app-config';
import { Metrics } from '../infrastructure/metrics/metrics';

/** `GET /metrics`: Prometheus text (docs/api.md), behind METRICS_TOKEN when it is set. */
@Controller('metrics')
export class MetricsController {
  constructor(
    private readonly metrics: Metrics,
    private readonly config: AppConfig,
  ) {}

  @Get()
  async scrape(@Headers('authorization') authorization: string | undefined, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    if (this.config.metricsToken !== null && !isSameSecret(authorization, `Bearer ${this.config.metricsToken}`)) {
      throw new UnauthorizedException();
    }
    reply.type(this.metrics.registry.contentType);
    return this.metrics.text();
  }
}
