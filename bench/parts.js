// The parts of `npm run bench` BENCH_ONLY may name, in the order a run measures them.
'use strict';

const PARTS = ['adapters', 'http', 'dialing', 'slow-provider', 'campaigns', 'import', 'relay', 'dnc', 'erasure', 'forecast'];

/**
 * The parts a run measures: every one when BENCH_ONLY is unset, else those it names, separated by
 * commas. A name not among them stops the run before anything is measured or written.
 */
function partsChosen(only = '') {
  const named = only
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  const unknown = named.filter((part) => !PARTS.includes(part));
  if (unknown.length) throw new Error(`BENCH_ONLY names no part "${unknown.join('", "')}"; the parts: ${PARTS.join(', ')}`);
  return new Set(named.length ? named : PARTS);
}

module.exports = { PARTS, partsChosen };
