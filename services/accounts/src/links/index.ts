// What the accounts service adds to contacts (ContactItem.account), batched per request.
export { accountsContext, type AccountsContext } from './accountLinks';
