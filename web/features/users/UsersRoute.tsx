/** /users: the tenant's users (SPEC.md "Users"); not built yet. */
import { PlaceholderScreen } from '../../components/ui/PlaceholderScreen';

/** The Users screen. */
export function UsersRoute() {
  return <PlaceholderScreen title="Users" />;
}
