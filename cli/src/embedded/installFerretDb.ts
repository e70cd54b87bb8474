import { ensureFerretDb } from './ferretdb';

/** `npm run install:ferretdb`: builds the embedded database once per machine (CI runs it before tests). */
ensureFerretDb((message) => console.log(message)).then(
  (binary) => console.log(`FerretDB ready: ${binary}`),
  (error: unknown) => {
    console.error((error as Error).message);
    process.exit(1);
  },
);
