import { ensureKustomize } from './kustomize';

/** `npm run install:kustomize`: builds kustomize once per machine (CI runs it before the tests). */
ensureKustomize((message) => console.log(message)).then(
  (binary) => console.log(`kustomize ready: ${binary}`),
  (error: unknown) => {
    console.error((error as Error).message);
    process.exit(1);
  },
);
