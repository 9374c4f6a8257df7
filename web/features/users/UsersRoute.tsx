/** /users: the tenant's users (docs/product.md "Screens: Users"); not built yet. */
import { PlaceholderScreen } from '../../components/ui/PlaceholderScreen';

/** The Users screen. */
export function UsersRoute() {
  return <PlaceholderScreen title="Users" />;
}
