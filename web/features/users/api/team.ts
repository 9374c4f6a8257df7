/**
 * The team's requests (docs/decisions/029-team-and-invitations.md): GET /api/users, and the
 * admins' invitations, role changes and removals. Each mutation refreshes the list; refusals are
 * shown as the server words them.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { useNavigate } from 'react-router';
import type { Role } from '../../../../common/contracts/session';
import { pendingInvitation, teamResponse, type InviteBody, type PendingInvitation, type TeamResponse } from '../../../../common/contracts/team';
import { actionErrorMessage, hasErrorCode } from '../../../lib/api-error';
import { apiFetch } from '../../../lib/api-fetch';
import { meQuery } from '../../../lib/queries/get-me';

/** Fetches the members and open invitations. @throws ApiError */
export function getTeam(signal?: AbortSignal): Promise<TeamResponse> {
  return apiFetch('/api/users', { schema: teamResponse, signal });
}

export const teamQuery = queryOptions({
  queryKey: ['team'],
  queryFn: ({ signal }) => getTeam(signal),
  meta: { errorMessage: 'Failed to load users' },
});

/** The Users screen's list. */
export function useTeam() {
  return useQuery(teamQuery);
}

function useTeamMutation<T>(mutationFn: (input: T) => Promise<unknown>, success: (input: T) => string, failure: string) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn,
    onSuccess: async (_data, input) => {
      toast.success(success(input));
      // The caller's own role may be the one that changed.
      await Promise.all([queryClient.invalidateQueries({ queryKey: teamQuery.queryKey }), queryClient.invalidateQueries({ queryKey: meQuery.queryKey })]);
    },
    onError: (error) => {
      toast.error(actionErrorMessage(error, failure));
      if (hasErrorCode(error, 'LIMIT_REACHED')) void navigate('/subscription');
    },
  });
}

/** Invite User. @throws ApiError: CONFLICT, LIMIT_REACHED, RATE_LIMITED, FORBIDDEN */
export function useInvite() {
  return useTeamMutation(
    (body: InviteBody): Promise<PendingInvitation> => apiFetch('/api/invitations', { method: 'POST', body, schema: pendingInvitation }),
    (body) => `Invitation sent to ${body.email}`,
    'Failed to send the invitation',
  );
}

/** Resend: a new link, valid 7 more days. */
export function useResendInvitation() {
  return useTeamMutation(
    (invitation: PendingInvitation) => apiFetch(`/api/invitations/${encodeURIComponent(invitation.id)}/resend`, { method: 'POST', schema: pendingInvitation }),
    (invitation) => `Invitation sent again to ${invitation.email}`,
    'Failed to resend the invitation',
  );
}

/** Revoke: the link stops working. */
export function useRevokeInvitation() {
  return useTeamMutation(
    (invitation: PendingInvitation) => apiFetch(`/api/invitations/${encodeURIComponent(invitation.id)}`, { method: 'DELETE' }),
    (invitation) => `Invitation to ${invitation.email} revoked`,
    'Failed to revoke the invitation',
  );
}

/** Change a member's role; applies on their next request. */
export function useChangeRole() {
  return useTeamMutation(
    ({ userId, role }: { userId: string; email: string; role: Role }) => apiFetch(`/api/users/${encodeURIComponent(userId)}`, { method: 'PATCH', body: { role } }),
    ({ email }) => `Role of ${email} changed`,
    'Failed to change the role',
  );
}

/** Remove a member; their open pages lose access at once. */
export function useRemoveMember() {
  return useTeamMutation(
    ({ userId }: { userId: string; email: string }) => apiFetch(`/api/users/${encodeURIComponent(userId)}`, { method: 'DELETE' }),
    ({ email }) => `${email} removed from the company`,
    'Failed to remove the user',
  );
}
