/**
 * A contact's last interaction: the later of its own (kept by the contacts service, and sent here as a
 * DateTime string through `@requires`) and the newest publishedDate of its feedback.
 */
export function lastInteraction(stored: Date | string | null | undefined, lastPublished: Date | null): Date | null {
  const own = stored ? new Date(stored) : null;
  if (!own) return lastPublished;
  if (!lastPublished) return own;
  return own > lastPublished ? own : lastPublished;
}
