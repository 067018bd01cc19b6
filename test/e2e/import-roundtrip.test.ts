// The import's round trip as a property (issue 17): a messy CSV, an import
// interrupted at a random batch (SIGINT, two SIGINTs a few ms apart as
// `timeout` and CI runners send them, two far apart, or SIGKILL), --resume
// until it completes, the failures file fixed as a user would and imported
// again; then the sandbox's state and every run's output against invariants
// and the oracle in test/helpers/import-roundtrip.ts. A few small cases here,
// each the case of one seed; scripts/soak-import.mjs runs the same property
// on many more (`node scripts/soak-import.mjs --seed <n> --runs 1` reruns a
// case below).
import { describe, expect, it } from 'vitest';
import { requireBuild } from '../helpers/cli.js';
import { checkSeed } from '../helpers/import-roundtrip.js';

/** EMAIL_ROUNDTRIP_SEED and EMAIL_ROUNDTRIP_CASES choose other cases (the seed of a failure is in its title and report). */
const FIRST_SEED = Number(process.env.EMAIL_ROUNDTRIP_SEED ?? 1);
const CASES = Number(process.env.EMAIL_ROUNDTRIP_CASES ?? 12);

describe('import round trip: interrupt, resume, fix the failures file, import it again', () => {
  for (let seed = FIRST_SEED; seed < FIRST_SEED + CASES; seed++) {
    it(`holds for the case of seed ${seed}`, async () => {
      requireBuild();
      const outcome = await checkSeed(seed);
      // The report names the seed, each property violated and how, the file and every run.
      if (outcome.failed) expect.fail(outcome.report);
    }, 60_000);
  }
});
