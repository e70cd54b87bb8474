import { Counter, type Registry } from 'prom-client';

/**
 * How a search was answered: by the index alone (`index`), by reading the index's matches from the items
 * (`matches`: another filter, or gone items not proven yet), or by a regex over the items (`regex`: a term
 * under three characters, or an organization not indexed yet).
 */
export type SearchPath = 'index' | 'matches' | 'regex';

export function createSearchMetrics(registry: Registry): (path: SearchPath) => void {
  const reads = new Counter({
    name: 'fi_feedback_searches_total',
    help: 'feedbackItems searches by how they were answered: index (the index alone), matches (its matches read from the items), regex (over the items)',
    labelNames: ['path'],
    registers: [registry],
  });
  for (const path of ['index', 'matches', 'regex'] as const) reads.inc({ path }, 0);
  return (path) => reads.inc({ path });
}
