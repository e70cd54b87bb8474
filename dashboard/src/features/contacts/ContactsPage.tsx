import { DirectoryPage } from '../directory/DirectoryPage';
import { CONTACTS } from './contactsDirectory';

export function ContactsPage() {
  return <DirectoryPage directory={CONTACTS} />;
}
