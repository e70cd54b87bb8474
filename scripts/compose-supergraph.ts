import { writeFileSync } from 'node:fs';
import {
  ADMIN_SUPERGRAPH_PATH,
  composeAdminSupergraph,
  composeAndCheck,
  subgraphSdls,
  SUPERGRAPH_PATH,
} from './supergraph';

async function main(): Promise<number> {
  const code = await composeAndCheck({
    allowBreaking: process.argv.includes('--allow-breaking'),
    supergraphPath: SUPERGRAPH_PATH,
    sdls: subgraphSdls(),
    log: (line) => console.log(line),
  });
  // The admin API is the gateway's own page's, shipped with it: no contract to check, only composition.
  writeFileSync(ADMIN_SUPERGRAPH_PATH, composeAdminSupergraph());
  console.log(`Wrote ${ADMIN_SUPERGRAPH_PATH}`);
  return code;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error((error as Error).message);
    process.exit(1);
  },
);
