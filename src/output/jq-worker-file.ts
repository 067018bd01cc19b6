// Where --jq's worker bundle is: from the sources (tests), the one the build
// wrote; in dist/cli.cjs the build puts its sibling's path here instead.
import { fileURLToPath } from 'node:url';

export const JQ_WORKER: string = fileURLToPath(new URL('../../dist/jq.cjs', import.meta.url));
