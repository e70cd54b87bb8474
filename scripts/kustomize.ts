import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { findGo, installedTool, machineCachePath } from '@fi/cli/embedded';

const run = promisify(execFile);

/** The newest release that builds with Go 1.22 (v5.8 needs a newer Go than CI machines have). */
export const KUSTOMIZE_VERSION = 'v5.7.1';
const KUSTOMIZE_PACKAGE = 'sigs.k8s.io/kustomize/kustomize/v5';

export function kustomizeCachePath(): string {
  return machineCachePath(`kustomize-${KUSTOMIZE_VERSION}`);
}

/** The kustomize binary: KUSTOMIZE_BIN, else the per-machine cache, else built from the Go module proxy. */
export async function ensureKustomize(say: (message: string) => void): Promise<string> {
  const target = kustomizeCachePath();
  const installed = installedTool('KUSTOMIZE_BIN', target);
  if (installed) return installed;

  const go = await findGo('kustomize is not installed; install Go to build it, or set KUSTOMIZE_BIN');
  say(
    `Building kustomize ${KUSTOMIZE_VERSION} with Go into ${target} (first run on this machine only; a few minutes)...`,
  );
  mkdirSync(path.dirname(target), { recursive: true });
  // Built beside the target and renamed, so a concurrent or interrupted build never leaves half a binary.
  const gobin = mkdtempSync(`${target}.partial-`);
  try {
    await run(go, ['install', `${KUSTOMIZE_PACKAGE}@${KUSTOMIZE_VERSION}`], {
      env: { ...process.env, GOBIN: gobin },
      maxBuffer: 64 * 1024 * 1024,
    });
    renameSync(path.join(gobin, 'kustomize'), target);
  } finally {
    rmSync(gobin, { recursive: true, force: true });
  }
  return target;
}

/** `kustomize build DIR`: the rendered manifests as one multi-document YAML string. */
export async function kustomizeBuild(binary: string, dir: string): Promise<string> {
  const { stdout } = await run(binary, ['build', dir], { maxBuffer: 16 * 1024 * 1024 });
  return stdout;
}
