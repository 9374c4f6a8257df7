/** Layout route for signed-in screens: spinner while the session loads, /login without one (saying why when it ended elsewhere). */
import { Navigate, Outlet } from 'react-router';
import { PageSpinner } from '../../components/ui/PageSpinner';
import { useAuthState } from '../../lib/use-auth-state';

/** Renders the nested route only for a signed-in user. */
export function RequireAuth() {
  const auth = useAuthState();
  if (auth.status === 'loading') return <PageSpinner />;
  // A session that ended elsewhere (access removed, signed out on another device) is told on /login.
  if (auth.status === 'signed-out') return <Navigate to={auth.ended ? '/login?ended=1' : '/login'} replace />;
  return <Outlet />;
}
