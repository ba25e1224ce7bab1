// Property tests run on one fixed seed in `npm test`, so a run is repeatable and CI fails only on a change (the
// same rule as the fuzz tests). MQ_FUZZ_SEED picks another seed to explore, or reproduce what one found.
import fc from 'fast-check';

const seed = process.env.MQ_FUZZ_SEED !== undefined ? Number(process.env.MQ_FUZZ_SEED) : 20261124;
fc.configureGlobal({ seed });
