/**
 * /unsubscribe#{token}: the page of the morning email's "Turn it off" link (docs/product.md
 * "Daily email"), open to anyone, signed in or not. The token stays after `#`, so it never reaches
 * a request log; the change waits for the button, because mail scanners open an email's links to
 * check them and must not turn the email off unasked.
 */
import { Link, useLocation } from 'react-router';
import { Button } from '../../components/ui/Button';
import { FormAlert } from '../../components/ui/FormAlert';
import { actionErrorMessage } from '../../lib/api-error';
import { useUnsubscribe } from './api/unsubscribe';
import { AuthCard } from './components/AuthCard';

/** The unsubscribe page. */
export function UnsubscribeRoute() {
  const token = useLocation().hash.slice(1);
  const unsubscribe = useUnsubscribe();
  if (unsubscribe.isSuccess) {
    const { email, company_name } = unsubscribe.data;
    return (
      <AuthCard title="Morning email turned off">
        <p role="status" className="text-center text-slate-700">
          {email} will no longer get the morning email of {company_name}. You can turn it on again on your Account screen.
        </p>
        <Link to="/account" className="mt-6 block text-center font-medium text-blue-700 underline-offset-2 hover:underline">
          Go to your account
        </Link>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Turn off the morning email">
      <div className="flex flex-col gap-4">
        <p className="text-center text-slate-700">You will no longer get the morning email with tomorrow&apos;s arrivals, pick lists and critical stock.</p>
        {unsubscribe.error && <FormAlert message={actionErrorMessage(unsubscribe.error, 'Failed to turn the morning email off. Please try again.')} />}
        <Button className="w-full" isBusy={unsubscribe.isPending} onClick={() => unsubscribe.mutate(token)}>
          Turn Off Morning Email
        </Button>
      </div>
    </AuthCard>
  );
}
