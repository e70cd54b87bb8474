/**
 * The address's parameters with `changes` applied (an empty value removes one). Changing anything but
 * the page goes back to the first page: the old page number means nothing in a different list.
 */
export function withParams(
  params: URLSearchParams,
  changes: Record<string, string | null | undefined>,
): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const [name, value] of Object.entries(changes)) {
    if (value) next.set(name, value);
    else next.delete(name);
  }
  if (!('page' in changes)) next.delete('page');
  return next;
}
