import { generateSecret, generateURI, verify } from 'otplib';
import { toString as qrCodeSvg } from 'qrcode';

/** RFC 6238 as authenticator apps read it: SHA-1, 6 digits, 30-second steps (otplib's defaults). */
const PERIOD_SECONDS = 30;
/** A code of the step before or after the current one is taken too: phones' clocks drift, people type slowly. */
const TOLERANCE_SECONDS = PERIOD_SECONDS;
const ISSUER = 'Feedback Intelligence';

export const newTotpSecret = (): string => generateSecret();

/** The otpauth:// address an authenticator app reads, and the same as a QR code (an SVG data URL). */
export async function enrollment(secret: string, email: string): Promise<{ otpauthUrl: string; qrCode: string }> {
  const otpauthUrl = generateURI({ issuer: ISSUER, label: email, secret });
  const svg = await qrCodeSvg(otpauthUrl, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { otpauthUrl, qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
}

/** The time step a six-digit `code` matches at `now` (within one step either way), or null. */
export async function matchingStep(secret: string, code: string, now: Date): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  const result = await verify({
    secret,
    token: code,
    epoch: Math.floor(now.getTime() / 1000),
    epochTolerance: TOLERANCE_SECONDS,
  });
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}

/** How long a used step must stay recorded: until no clock within the tolerance can present it again. */
export const stepUseEnds = (step: number): Date =>
  new Date((step + 2) * PERIOD_SECONDS * 1000 + TOLERANCE_SECONDS * 1000);
