/** Any path the app does not know: to / when signed in, to /login otherwise. */
import { Navigate } from 'react-router';
import { PageSpinner } from '../../components/ui/PageSpinner';
import { useAuthState } from '../../lib/use-auth-state';

/** Redirects once the session is known. */
export function UnknownPathRedirect() {
  const auth = useAuthState();
  if (auth.status === 'loading') return <PageSpinner />;
  return <Navigate to={auth.status === 'signed-in' ? '/' : '/login'} replace />;
}
