import type { Connection } from '@fi/shared/database';
import { ThemeStore } from './data/themeStore';

interface DemoTheme {
  label: string;
  description: string;
  keywords: string[];
  children?: DemoTheme[];
}

/**
 * A taxonomy a product team would write for the demo's feedback (cli/src/seed/vocabulary.ts): six themes,
 * two of them under a third. The seed's other subjects (the mobile app, SSO, search, notifications, the API,
 * integrations) stay suggestions to accept.
 */
export const DEMO_TAXONOMY: DemoTheme[] = [
  {
    label: 'Billing and invoices',
    description: 'Invoices, charges, refunds and the billing page.',
    keywords: ['invoice', 'billing', 'refund', 'VAT'],
  },
  {
    label: 'Reporting',
    description: 'Dashboards, reports and exports of the workspace’s data.',
    keywords: ['report'],
    children: [
      { label: 'Dashboards', description: 'Dashboards and their widgets.', keywords: ['dashboard', 'widgets'] },
      {
        label: 'CSV export',
        description: 'Exporting data to CSV files or Excel.',
        keywords: ['CSV', 'export', 'Excel'],
      },
    ],
  },
  {
    label: 'Onboarding',
    description: 'Getting a team started: the checklist, tutorials and invitations.',
    keywords: ['onboarding', 'checklist', 'tutorial'],
  },
  { label: 'Dark mode', description: 'A dark colour theme for the app.', keywords: ['dark mode', 'dark theme'] },
];

/**
 * Writes the demo taxonomy into an organization that has no curated theme yet, and has its items assigned
 * at the theme worker's next pass; returns how many themes it wrote.
 */
export async function curateDemoTaxonomy(connection: Connection, orgId: string, now = new Date()): Promise<number> {
  const store = new ThemeStore(connection);
  if ((await store.taxonomy.curated(orgId)).length > 0) return 0;
  let written = 0;
  const write = async (themes: DemoTheme[], parentId: string | null) => {
    for (const { children, ...theme } of themes) {
      const { id } = await store.taxonomy.insert(orgId, { ...theme, exampleIds: [], parentId }, now);
      written += 1;
      if (children) await write(children, id);
    }
  };
  await write(DEMO_TAXONOMY, null);
  await store.recomputeSoon(orgId, now);
  return written;
}
