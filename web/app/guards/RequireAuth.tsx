/** Layout route for signed-in screens: spinner while the session loads, /login without one. */
import { Navigate, Outlet } from 'react-router';
import { PageSpinner } from '../../components/ui/PageSpinner';
import { useAuthState } from '../../lib/use-auth-state';

/** Renders the nested route only for a signed-in user. */
export function RequireAuth() {
  const auth = useAuthState();
  if (auth.status === 'loading') return <PageSpinner />;
  if (auth.status === 'signed-out') return <Navigate to="/login" replace />;
  return <Outlet />;
}
