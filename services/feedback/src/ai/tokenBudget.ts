/**
 * An organization's monthly tokens (AI_MONTHLY_TOKENS). A call reserves what it may cost before it is
 * sent, so simultaneous calls cannot together pass the budget, and settles on what the server's `usage`
 * counted once it answered (the reservation stays counted when the server gives no usage or no answer).
 */
export interface TokenBudget {
  /** Takes `tokens` of the organization's month when they fit in it; false (nothing taken) when not. */
  reserve(orgId: string, tokens: number): Promise<boolean>;
  /** Replaces a reservation of `reserved` tokens by the `used` the server counted. */
  settle(orgId: string, reserved: number, used: number): Promise<void>;
}

/** No budget (AI_MONTHLY_TOKENS=0): every call may go. */
export const unlimitedTokens: TokenBudget = {
  reserve: () => Promise.resolve(true),
  settle: () => Promise.resolve(),
};

/** A rough count of the tokens of a text (about four characters each in English), to reserve before a call. */
export const estimatedTokens = (text: string) => Math.ceil(text.length / 4) + 4;
