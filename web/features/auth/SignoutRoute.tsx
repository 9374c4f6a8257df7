/**
 * /signout: ends the session, then goes to /login. With stock changes kept on this phone and not
 * sent yet (docs/product.md "Offline use"), it asks first: signing out discards them.
 */
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button, buttonClasses } from '../../components/ui/Button';
import { PageSpinner } from '../../components/ui/PageSpinner';
import { discardAll } from '../../lib/outbox/outbox';
import { useOutbox } from '../../lib/outbox/use-outbox';
import { useAuthState } from '../../lib/use-auth-state';
import { useSignOut } from './api/sign-out';
import { AuthCard } from './components/AuthCard';

/** Signs out once on arrival — after asking, when changes kept on this phone would be lost. */
export function SignoutRoute() {
  const signOut = useSignOut();
  const navigate = useNavigate();
  const auth = useAuthState();
  const outbox = useOutbox();
  const [confirmed, setConfirmed] = useState(false);
  // Effects run twice in development; the session must be ended only once.
  const started = useRef(false);
  const kept = outbox.waiting.length + outbox.notSent.length;
  // Signed in, the kept changes are read before deciding; signed out, there is nothing to ask.
  const deciding = auth.status === 'loading' || (auth.status === 'signed-in' && !outbox.ready);
  const mustAsk = auth.status === 'signed-in' && kept > 0 && !confirmed;

  useEffect(() => {
    if (started.current || deciding || mustAsk) return;
    started.current = true;
    void (async () => {
      if (confirmed) await discardAll();
      await signOut();
    })().finally(() => navigate('/login', { replace: true }));
  }, [signOut, navigate, deciding, mustAsk, confirmed]);

  if (!mustAsk) return <PageSpinner />;
  return (
    <AuthCard title="Sign out?">
      <p role="alert" className="text-base text-slate-800">
        {`${kept} ${kept === 1 ? 'stock change' : 'stock changes'} made on this phone ${kept === 1 ? 'has' : 'have'} not been sent yet. Signing out discards ${kept === 1 ? 'it' : 'them'}.`}
      </p>
      <div className="mt-6 flex flex-col gap-2">
        <Link to="/pending-changes" className={buttonClasses('primary')}>
          Stay signed in
        </Link>
        <Button variant="danger" onClick={() => setConfirmed(true)}>
          Sign out and discard
        </Button>
      </div>
    </AuthCard>
  );
}
