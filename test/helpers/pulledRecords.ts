import type { Connection } from 'mongoose';
import type { PullConnection, PulledBatch, PullSink } from '@fi/integrations';

interface StoredItem {
  _id: string;
  orgId: string;
  connectionId: string;
  externalId: string;
  title: string;
  email: string | null;
  /** How many times the item was delivered: more than 1 when a page was fetched again. */
  deliveries: number;
}

/**
 * A sink for the pull worker's tests that stores each item once per organization, source and external id
 * (as the feedback service does) and counts its deliveries, in a collection of the test's database.
 */
export class PulledRecords implements PullSink {
  constructor(private readonly connection: Connection) {}

  private get items() {
    return this.connection.collection<StoredItem>('pulled_items');
  }

  async deliver(connection: PullConnection, batch: PulledBatch): Promise<void> {
    if (batch.items.length === 0) return;
    await this.items.bulkWrite(
      batch.items.map((item) => ({
        updateOne: {
          filter: { _id: `${connection.orgId}:${item.source}:${item.externalId}` },
          update: {
            $setOnInsert: {
              orgId: connection.orgId,
              connectionId: connection.id,
              externalId: item.externalId,
              title: item.title,
              email: item.email,
            },
            $inc: { deliveries: 1 },
          },
          upsert: true,
        },
      })),
      { ordered: true },
    );
  }

  of(orgId: string): Promise<StoredItem[]> {
    return this.items.find({ orgId }).toArray();
  }

  count(orgId: string): Promise<number> {
    return this.items.countDocuments({ orgId });
  }
}
