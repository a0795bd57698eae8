// The do-not-call check a dial claim makes (DoNotCallQueries.listed), timed in a process of its own on
// the bench's data directory: `node bench/dnc-check.js <userId> <listedFrom> <listedTo> <count>` with
// DATA_DIR set prints the microseconds one check of one number took (median and p99, listed numbers
// and numbers not listed taken in turn).
'use strict';
require('reflect-metadata');
const { NestFactory } = require('@nestjs/core');
const { join } = require('node:path');
const { dncNumber } = require('./dnc-numbers');

const dist = join(__dirname, '..', 'dist');
const { AppModule } = require(join(dist, 'app.module'));
const { loadServiceConfig: loadConfig } = require(join(dist, 'service-config'));
const { DoNotCallQueries } = require(join(dist, 'do-not-call/do-not-call.queries'));

async function main([userId, from, to, count]) {
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'error' });
  const app = await NestFactory.createApplicationContext(AppModule.forRoot({ config, background: false, projectAtStart: false }), { logger: false });
  try {
    const queries = app.get(DoNotCallQueries);
    const took = [];
    const span = Number(to) - Number(from);
    for (let i = 0; i < Number(count); i++) {
      // Spread over the whole list, and as many numbers never listed (past its end).
      const number = i % 2 ? dncNumber(Number(from) + Math.floor(Math.random() * span)) : dncNumber(Number(to) + 1_000_000 + i);
      const started = process.hrtime.bigint();
      const found = await queries.listed(Number(userId), [number]);
      took.push(Number(process.hrtime.bigint() - started) / 1000);
      if (found.length !== i % 2) throw new Error(`${number}: listed ${found.length}, expected ${i % 2}`);
    }
    took.sort((a, b) => a - b);
    const at = (q) => Number(took[Math.min(took.length - 1, Math.floor(q * took.length))].toFixed(1));
    process.stdout.write(`${JSON.stringify({ checks: took.length, median_us: at(0.5), p99_us: at(0.99) })}\n`);
  } finally {
    await app.close();
  }
}

main(process.argv.slice(2)).catch((error) => {
  console.error(error);
  process.exit(1);
});
