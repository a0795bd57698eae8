// The scheduler's own CPU time per decision, which the dialing run cannot tell apart from the
// calls' work around it: DialScheduler passes run alone in a process of the built service's
// modules (no HTTP, no reactors, no checkpointing thread) on the data directory in DATA_DIR.
// A decision is one lead claimed for a call: the pass finds it due and claims it with an
// append, and its claim is projected (the next pass waits for that). Between passes, outside
// the measurement, every call in flight ends as the call-results reactor would end it (its place
// among the campaign's calls in flight freed, its lead finished), so
// each pass finds its slots free again.
// Usage: node bench/scheduler-passes.js <user id> <campaign id> <passes>; prints one JSON line.
require('reflect-metadata');
const { NestFactory } = require('@nestjs/core');
const { CommandBus } = require('@nestjs/cqrs');
const { AppModule } = require('../dist/app.module');
const { loadServiceConfig: loadConfig } = require('../dist/service-config');
const { EVENT_STORE } = require('../dist/shared/ports/event-store.port');
const { ProjectionRunner } = require('../dist/infrastructure/projections/projection-runner');
const { ChangeCampaignStatus } = require('../dist/campaigns/commands/change-campaign-status');
const { DialScheduler } = require('../dist/dialing/dial-scheduler');
const { DialingPolicies } = require('../dist/dialing/dialing-policies');
const { FinishLeadCall } = require('../dist/leads/commands/finish-lead-call');
const { CallSlots } = require('../dist/dialing/call-slots');
const { LeadsProjection } = require('../dist/leads/leads.projection');

const cpuMicros = (since) => {
  const { user, system } = process.cpuUsage(since);
  return user + system;
};

const USAGE = 'Usage: node bench/scheduler-passes.js <user id> <campaign id> <passes>\n';

async function main(args) {
  if (args.length !== 3 || !args.every((a) => /^[1-9][0-9]*$/.test(a))) {
    process.stderr.write(USAGE);
    process.exit(64);
  }
  const [userId, campaignId, passes] = args;
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'error', DEFAULT_QUIET_HOURS: 'none' });
  const app = await NestFactory.createApplicationContext(AppModule.forRoot({ config, background: false }), { logger: ['error'] });
  try {
    const [scheduler, commands, projections, events, leads] = [DialScheduler, CommandBus, ProjectionRunner, EVENT_STORE, LeadsProjection].map((t) =>
      app.get(t),
    );
    // The bench's user founded its organisation, which has its id.
    const user = { id: Number(userId), organisationId: Number(userId) };
    const campaign = Number(campaignId);
    const settled = async () => projections.settle(await events.headPosition());
    await commands.execute(new ChangeCampaignStatus(user, campaign, 'start'));
    const policy = await app.get(DialingPolicies).retryPolicy(campaign);
    const slots = app.get(CallSlots);
    const result = { passes: 0, decisions: 0, cpu_ms: 0 };
    while (result.passes < Number(passes)) {
      await settled();
      const before = process.cpuUsage();
      const claimed = await scheduler.pass();
      await settled();
      result.cpu_ms += cpuMicros(before) / 1000;
      result.passes += 1;
      result.decisions += claimed;
      if (claimed === 0) break;
      const ended = await leads.leads.find({ campaign_id: campaign, in_flight: true });
      await slots.free(
        campaign,
        ended.map((lead) => lead.in_flight_call_id),
      );
      for (const lead of ended) await commands.execute(new FinishLeadCall(lead.id, lead.in_flight_call_id, 'completed', true, policy));
    }
    await commands.execute(new ChangeCampaignStatus(user, campaign, 'stop'));
    return { ...result, cpu_ms: +result.cpu_ms.toFixed(1), cpu_ms_per_decision: result.decisions ? +(result.cpu_ms / result.decisions).toFixed(4) : null };
  } finally {
    await app.close();
  }
}

main(process.argv.slice(2)).then(
  (result) => process.stdout.write(`${JSON.stringify(result)}\n`),
  (error) => {
    process.stderr.write(`${error.stack ?? error}\n`);
    process.exitCode = 1;
  },
);
