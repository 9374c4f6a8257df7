import { describe, expect, it } from 'vitest';
import type { TeamMember } from '../../../common/contracts/team';
import { memberActions } from './member-actions';

const person = (role: TeamMember['role'], user_id = role ?? 'x'): TeamMember => ({
  user_id,
  email: `${user_id}@example.com`,
  name: user_id,
  role,
  joined_at: '2026-01-01T00:00:00.000Z',
  last_active_at: null,
});

describe('memberActions', () => {
  it('offers a member nothing', () => {
    expect(memberActions(person('member', 'm2'), { role: 'member', userId: 'm' }, 1)).toMatchObject({ canChangeRole: false, canRemove: false, note: undefined });
  });

  it('lets an admin manage members and admins but never an owner, and never offer owner', () => {
    const admin = { role: 'admin', userId: 'a' } as const;
    expect(memberActions(person('member'), admin, 1)).toMatchObject({ canChangeRole: true, canRemove: true, roleChoices: ['admin', 'member'] });
    expect(memberActions(person('owner'), admin, 2)).toMatchObject({ canChangeRole: false, canRemove: false });
  });

  it('lets an owner change any role, except the last owner, and says why', () => {
    const owner = { role: 'owner', userId: 'o' } as const;
    expect(memberActions(person('member'), owner, 1).roleChoices).toEqual(['owner', 'admin', 'member']);
    expect(memberActions(person('owner', 'o'), owner, 1)).toMatchObject({ canChangeRole: false, canRemove: false, note: 'The last owner cannot be removed or demoted.' });
    expect(memberActions(person('owner', 'o'), owner, 2)).toMatchObject({ canChangeRole: true, canRemove: true });
  });
});
