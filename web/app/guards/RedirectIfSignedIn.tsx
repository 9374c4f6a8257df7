/** Layout route for /login and /signup: a signed-in user is sent to / instead. */
import { Navigate, Outlet } from 'react-router';
import { PageSpinner } from '../../components/ui/PageSpinner';
import { useAuthState } from '../../lib/use-auth-state';

/** Renders the nested route only for a signed-out user. */
export function RedirectIfSignedIn() {
  const auth = useAuthState();
  if (auth.status === 'loading') return <PageSpinner />;
  if (auth.status === 'signed-in') return <Navigate to="/" replace />;
  return <Outlet />;
}
