// The same two routes on a NestJS app over the adapter named by argv[2] (`fastify` or `express`),
// listening on 127.0.0.1:argv[3]: what the HTTP adapter is chosen by (see `adapters` in run.js).
// A constant, and a JSON body parsed and sent back: the adapter's own work, nothing of the service.
// Plain JavaScript, so the decorators are applied as functions.
require('reflect-metadata');
const { Body, Controller, Get, HttpCode, Module, Post } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');

class RoutesController {
  constant() {
    return { status: 'ok' };
  }

  echo(body) {
    return { message: 'Received', data: body };
  }
}
const route = (name, ...decorators) => {
  const descriptor = Object.getOwnPropertyDescriptor(RoutesController.prototype, name);
  for (const decorate of decorators) decorate(RoutesController.prototype, name, descriptor);
};
route('constant', Get('constant'));
route('echo', Post('echo'), HttpCode(200));
Body()(RoutesController.prototype, 'echo', 0);
Controller()(RoutesController);

class RoutesModule {}
Module({ controllers: [RoutesController] })(RoutesModule);

function adapterNamed(name) {
  if (name === 'fastify') {
    const { FastifyAdapter } = require('@nestjs/platform-fastify');
    return new FastifyAdapter();
  }
  if (name === 'express') {
    const { ExpressAdapter } = require('@nestjs/platform-express');
    return new ExpressAdapter();
  }
  throw new Error(`no adapter named ${name}`);
}

async function main() {
  const [, , adapter, port] = process.argv;
  const app = await NestFactory.create(RoutesModule, adapterNamed(adapter), { logger: ['error'] });
  await app.listen(Number(port), '127.0.0.1');
  process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
