// Where --jq's worker thread is (src/output/jq-worker.ts, bundled with jq
// into dist/jq.cjs). Run from the sources (tests), it is the bundle the build
// wrote; in dist/cli.cjs the build puts its sibling's path here instead
// (scripts/build.mjs), wherever the package is installed.
import { fileURLToPath } from 'node:url';

export const JQ_WORKER: string = fileURLToPath(new URL('../../dist/jq.cjs', import.meta.url));
