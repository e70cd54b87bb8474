import { composeAndCheck, subgraphSdls, SUPERGRAPH_PATH } from './supergraph';

composeAndCheck({
  allowBreaking: process.argv.includes('--allow-breaking'),
  supergraphPath: SUPERGRAPH_PATH,
  sdls: subgraphSdls(),
  log: (line) => console.log(line),
}).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error((error as Error).message);
    process.exit(1);
  },
);
