/** /signout: ends the session, then goes to /login. */
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { PageSpinner } from '../../components/ui/PageSpinner';
import { useSignOut } from './api/sign-out';

/** Signs out once on arrival and shows a spinner meanwhile. */
export function SignoutRoute() {
  const signOut = useSignOut();
  const navigate = useNavigate();
  // Effects run twice in development; the session must be ended only once.
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void signOut().finally(() => navigate('/login', { replace: true }));
  }, [signOut, navigate]);

  return <PageSpinner />;
}
