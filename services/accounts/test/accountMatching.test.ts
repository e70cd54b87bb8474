import { Types } from 'mongoose';
import { accountMatchKeys, toAccountItem } from '../src/data/accountRepository';
import type { AccountDocument } from '../src/data/accountModel';

const createdAt = new Date('2026-01-15T09:30:00Z');

describe('a stored account as the API shows it', () => {
  test('when optional fields are missing, then they are null, tags empty, and the id is the hex ObjectId', () => {
    const _id = new Types.ObjectId();
    const item = toAccountItem({ _id, orgId: 'org-1', name: 'Acme', createdAt } as AccountDocument);
    expect(item).toEqual({
      id: _id.toHexString(),
      orgId: 'org-1',
      name: 'Acme',
      domain: null,
      description: null,
      website: null,
      score: null,
      churnRisk: null,
      tags: [],
      createdAt,
      domainKey: null,
      nameKey: 'acme',
    });
  });

  test('when scores are 0, then they stay 0 (not null)', () => {
    const item = toAccountItem({
      _id: new Types.ObjectId(),
      orgId: 'o',
      name: 'A',
      score: 0,
      churnRisk: 0,
      createdAt,
    } as AccountDocument);
    expect(item).toMatchObject({ score: 0, churnRisk: 0 });
  });

  test('when an account was stored before match keys existed, then its keys are derived from domain and name', () => {
    const doc = {
      _id: new Types.ObjectId(),
      orgId: 'o',
      name: ' Acme Corp ',
      domain: 'ACME.com',
      createdAt,
    } as AccountDocument;
    expect(toAccountItem(doc)).toMatchObject({ domainKey: 'acme.com', nameKey: 'acme corp' });
  });

  test('when stored match keys exist, then they are used as stored', () => {
    const doc = {
      _id: new Types.ObjectId(),
      orgId: 'o',
      name: 'Renamed',
      domain: 'new.com',
      domainKey: 'old.com',
      nameKey: 'old',
      createdAt,
    } as AccountDocument;
    expect(toAccountItem(doc)).toMatchObject({ domainKey: 'old.com', nameKey: 'old' });
  });
});

describe('the match keys stored beside an account', () => {
  test('when domain and name are set, then they are lower-cased and trimmed', () => {
    expect(accountMatchKeys({ domain: ' Example.ORG ', name: 'Example Org' })).toEqual({
      domainKey: 'example.org',
      nameKey: 'example org',
    });
  });

  test('when the domain is missing, then only the name links', () => {
    expect(accountMatchKeys({ domain: undefined, name: 'Solo' })).toEqual({ domainKey: null, nameKey: 'solo' });
  });
});
