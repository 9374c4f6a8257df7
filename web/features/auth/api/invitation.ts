/**
 * The requests of an invitation link (docs/decisions/029-team-and-invitations.md): what it is
 * for, accepting it signed in, or joining with a new account made from it.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { invitationPreview, type InvitationPreview, type JoinBody } from '../../../../common/contracts/team';
import { apiFetch } from '../../../lib/api-fetch';
import { authClient } from '../../../lib/auth-client';

const joined = z.object({ company_name: z.string() });
const INVITATION_KEY = 'invitation';

/** The invitation of `token`. @throws ApiError NOT_FOUND (not a valid link), CONFLICT (used, revoked, expired) */
export function useInvitationPreview(token: string) {
  return useQuery({
    queryKey: [INVITATION_KEY, token],
    queryFn: ({ signal }): Promise<InvitationPreview> =>
      apiFetch('/api/invitations/preview', { method: 'POST', body: { token }, schema: invitationPreview, signal }),
    retry: false,
    staleTime: Infinity,
  });
}

/**
 * After joining, the app starts again as the member: cached data of anyone before goes (all but
 * the invitation itself, which the page still shows and must not read again: it is used now),
 * the session is re-read so the guards see the signed-in member, and the member lands on the
 * company's dashboard. Runs from the mutation itself, so it completes even if the page changes.
 */
function useJoined() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { refetch } = authClient.useSession();
  return async ({ company_name }: { company_name: string }) => {
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== INVITATION_KEY });
    await refetch();
    toast.success(`Welcome to ${company_name}!`);
    navigate('/', { replace: true });
  };
}

/** The signed-in person accepts. @throws ApiError FORBIDDEN (another email), CONFLICT */
export function useAcceptInvitation() {
  return useMutation({
    mutationFn: (token: string) => apiFetch('/api/invitations/accept', { method: 'POST', body: { token }, schema: joined }),
    onSuccess: useJoined(),
  });
}

/** A new account from the link, signed in. @throws ApiError VALIDATION (password), CONFLICT */
export function useJoinInvitation() {
  return useMutation({
    mutationFn: (body: JoinBody) => apiFetch('/api/invitations/join', { method: 'POST', body, schema: joined }),
    onSuccess: useJoined(),
  });
}
