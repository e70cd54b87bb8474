import { writeFileSync } from 'node:fs';
import { composeSupergraph, SUPERGRAPH_PATH } from './supergraph';

try {
  writeFileSync(SUPERGRAPH_PATH, composeSupergraph());
  console.log(`Wrote ${SUPERGRAPH_PATH}`);
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
