import { ApiKeyStore, connectMongo } from '@fi/shared';
import { newOrgId } from './stack';

/** A pro key for a fresh organization in the key store of the server at `uri`. */
export async function createKeyAt(uri: string): Promise<string> {
  const connection = await connectMongo(uri, 'auth');
  try {
    return (await new ApiKeyStore(connection).create({ orgId: newOrgId(), tier: 'pro', readOnly: false })).key;
  } finally {
    await connection.close();
  }
}
