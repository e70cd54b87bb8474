/**
 * An account as the service's rules check it (an import, a seed, the admin API), before the repository
 * adds its id, organization and match keys.
 */
export interface AccountRecord {
  name: string;
  domain?: string;
  description?: string;
  website?: string;
  score?: number;
  churnRisk?: number;
  tags: string[];
  createdAt: Date;
}

/** An account as the API reads it. */
export interface AccountItem {
  id: string;
  orgId: string;
  name: string;
  domain: string | null;
  description: string | null;
  website: string | null;
  score: number | null;
  churnRisk: number | null;
  tags: string[];
  createdAt: Date;
  domainKey: string | null;
  nameKey: string | null;
}
