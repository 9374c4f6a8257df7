/** Continue (or 'Complete Setup' on the last step) and Sign Out, under every onboarding step. */
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/Button';

interface StepActionsProps {
  isLast: boolean;
  isBusy: boolean;
}

/** Renders the step's submit button and the sign-out button. */
export function StepActions({ isLast, isBusy }: StepActionsProps) {
  const navigate = useNavigate();
  return (
    <div className="mt-8 flex flex-col-reverse gap-3 sm:flex-row sm:justify-between">
      <Button variant="secondary" onClick={() => navigate('/signout')}>
        Sign Out
      </Button>
      <Button type="submit" isBusy={isBusy}>
        {isLast ? 'Complete Setup' : 'Continue'}
      </Button>
    </div>
  );
}
