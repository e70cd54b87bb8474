// What the contacts service adds to feedback and accounts (FeedbackItem.contact, AccountItem.contacts), batched per request.
export { contactsContext, type ContactsContext } from './contactLinks';
