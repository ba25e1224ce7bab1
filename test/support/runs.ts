// A property test's runs in `npm test`: few enough that none takes long on a loaded machine. MQ_PROPERTY_RUNS=N
// runs each property N times instead, for a longer look (MQ_FUZZ_SEED picks another seed: test/setup/fast-check.ts).
export const propertyRuns = (count: number): number => Number(process.env.MQ_PROPERTY_RUNS ?? count);
