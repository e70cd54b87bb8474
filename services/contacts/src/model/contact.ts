/**
 * A contact as the service's rules check it (an import, a seed, the admin API), before the repository
 * adds its id, organization and match keys.
 */
export interface ContactRecord {
  name: string;
  email?: string;
  phone?: string;
  company?: string;
  title?: string;
  location?: string;
  tags: string[];
  lastInteraction?: Date;
  createdAt: Date;
}

/** A contact as the API reads it. */
export interface ContactItem {
  id: string;
  orgId: string;
  name: string;
  email: string | null;
  phone: string | null;
  company: string | null;
  title: string | null;
  location: string | null;
  tags: string[];
  storedLastInteraction: Date | null;
  createdAt: Date;
}
