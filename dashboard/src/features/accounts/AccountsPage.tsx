import { DirectoryPage } from '../directory/DirectoryPage';
import { ACCOUNTS } from './accountsDirectory';

export function AccountsPage() {
  return <DirectoryPage directory={ACCOUNTS} />;
}
