import { Types } from 'mongoose';
import { contactMatchKeys, toContactItem } from '../src/data/contactRepository';
import { contactLinkKey } from '../src/links/contactLinkLoaders';
import type { ContactDocument } from '../src/data/contactModel';

const createdAt = new Date('2026-01-15T09:30:00Z');

describe('a stored contact as the API shows it', () => {
  test('when optional fields are missing, then they are null, tags empty, and the id is the hex ObjectId', () => {
    const _id = new Types.ObjectId();
    const doc = { _id, orgId: 'org-1', name: 'Ada', createdAt } as ContactDocument;
    expect(toContactItem(doc)).toEqual({
      id: _id.toHexString(),
      orgId: 'org-1',
      name: 'Ada',
      email: null,
      phone: null,
      company: null,
      title: null,
      location: null,
      tags: [],
      storedLastInteraction: null,
      createdAt,
    });
  });

  test("when the contact has its own last interaction, then it is handed over as storedLastInteraction (the public field adds feedback's)", () => {
    const lastInteraction = new Date('2026-02-01T00:00:00Z');
    const doc = {
      _id: new Types.ObjectId(),
      orgId: 'o',
      name: 'N',
      tags: ['vip'],
      lastInteraction,
      createdAt,
    } as ContactDocument;
    expect(toContactItem(doc)).toMatchObject({ storedLastInteraction: lastInteraction, tags: ['vip'] });
  });
});

describe('the match keys stored beside a contact', () => {
  test('when email and company are set, then they are lower-cased and trimmed, with the email domain apart', () => {
    expect(contactMatchKeys({ email: ' Ada@Acme.COM ', company: ' ACME Corp ' })).toEqual({
      emailLower: 'ada@acme.com',
      emailDomain: 'acme.com',
      companyKey: 'acme corp',
    });
  });

  test('when email and company are missing or blank, then every key is null', () => {
    expect(contactMatchKeys({ email: '  ', company: undefined })).toEqual({
      emailLower: null,
      emailDomain: null,
      companyKey: null,
    });
  });
});

describe('the account key a contact links by', () => {
  test('when the contact has a company email, then it links by that domain, not by its company name', () => {
    expect(contactLinkKey({ orgId: 'o', emailDomain: 'acme.com', companyKey: 'other inc' })).toBe(
      'o\u0000domain:acme.com',
    );
  });

  test('when the email is a free-mail address, then it links by company name instead', () => {
    expect(contactLinkKey({ orgId: 'o', emailDomain: 'gmail.com', companyKey: 'acme corp' })).toBe(
      'o\u0000name:acme corp',
    );
  });

  test('when there is neither a company email nor a company, then it links to nothing', () => {
    expect(contactLinkKey({ orgId: 'o', emailDomain: 'gmail.com', companyKey: null })).toBeNull();
    expect(contactLinkKey({ orgId: 'o', emailDomain: null, companyKey: null })).toBeNull();
  });

  test('when two organizations have the same domain, then their keys differ', () => {
    expect(contactLinkKey({ orgId: 'a', emailDomain: 'acme.com' })).not.toBe(
      contactLinkKey({ orgId: 'b', emailDomain: 'acme.com' }),
    );
  });
});
