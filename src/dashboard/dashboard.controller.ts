import { Controller, Get, NotFoundException, Param, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { DashboardFiles } from './dashboard-files';

/** Everything from this service: no script, style or chart comes from anywhere else (README.md). */
const CONTENT_SECURITY_POLICY = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'";

/** `GET /dashboard`: the campaign dashboard, a page that calls the API with the token the user pastes. */
@Controller('dashboard')
export class DashboardController {
  private readonly files = new DashboardFiles();

  @Get()
  page(@Res() reply: FastifyReply) {
    return this.send(reply, 'index.html');
  }

  @Get(':file')
  file(@Param('file') name: string, @Res() reply: FastifyReply) {
    return this.send(reply, name);
  }

  @Get('vendor/:file')
  vendor(@Param('file') name: string, @Res() reply: FastifyReply) {
    return this.send(reply, `vendor/${name}`);
  }

  private send(reply: FastifyReply, name: string) {
    const file = this.files.get(name);
    if (!file) throw new NotFoundException();
    return reply.type(file.type).header('content-security-policy', CONTENT_SECURITY_POLICY).header('cache-control', 'no-cache').send(file.body);
  }
}
