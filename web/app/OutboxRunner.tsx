/**
 * Runs the outbox (web/lib/outbox/outbox.ts) for the signed-in user: their kept stock changes are
 * read and sent while they are signed in, and stop being sent (and shown) once they are not. When
 * it sends changes no screen of this page was waiting on — kept offline, or left by a page that
 * closed before their answer — a toast says how many were sent.
 */
import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { onSentEarlier, startOutbox } from '../lib/outbox/outbox';
import { sentEarlierText } from '../lib/outbox/pending-change';
import { useAuthState } from '../lib/use-auth-state';

/** Renders nothing; starts and stops the outbox as the signed-in user changes. */
export function OutboxRunner() {
  const auth = useAuthState();
  const queryClient = useQueryClient();
  const userId = auth.status === 'signed-in' ? auth.user.id : null;
  useEffect(() => (userId === null ? undefined : startOutbox(queryClient, userId)), [queryClient, userId]);
  useEffect(() => onSentEarlier((count) => toast.success(sentEarlierText(count), { id: 'sent-earlier' })), []);
  return null;
}
