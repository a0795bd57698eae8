'use strict';
const { phone } = require('./load');

/** Area codes whose valid exchanges hold 5,000,000 numbers each: the bench's do-not-call numbers, all distinct. */
const AREAS = [201, 202, 203, 205, 206, 207, 208, 209];
const PER_AREA = 5_000_000;

/** The i-th number of the bench's do-not-call lists (E.164), i up to 40,000,000. */
const dncNumber = (i) => phone(i % PER_AREA, AREAS[Math.floor(i / PER_AREA)]);

module.exports = { dncNumber };
