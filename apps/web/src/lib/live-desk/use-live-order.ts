// What the live desk knows about one order, as the pages show it: the other people on it (never oneself) and the
// newest change heard, with the words for both.
import { useMemo } from 'react';
import type { OrderChangedEvent, PresenceActivity, PresencePerson } from '@eta/contracts';
import { useCurrentUser } from '../auth/use-current-user';
import type { SessionUser } from '../auth/session';
import { useAppSelector } from '../store';
import { orderKey } from './live-desk-slice';

const NOBODY: readonly PresencePerson[] = [];
const NOTHING_ADDED: readonly OrderChangedEvent[] = [];

const ACTIVITY_WORDS: Record<PresenceActivity, string> = {
  'editing-remarks': 'editing remarks',
  viewing: 'viewing',
};

const isSelf = (person: PresencePerson, user: SessionUser | null): boolean =>
  user !== null && (user.id !== undefined ? person.staffId === user.id : person.name === user.name);

/**
 * Everyone else on the order, once each (a person with two tabs open counts as editing when either tab is), those
 * editing remarks first.
 */
export function useOthersOnOrder(orderId: string): readonly PresencePerson[] {
  const user = useCurrentUser();
  const people = useAppSelector((state) => state.liveDesk.presence[orderKey(orderId)]);
  return useMemo(() => {
    if (!people) return NOBODY;
    const byStaff = new Map<number, PresencePerson>();
    people.forEach((person) => {
      if (isSelf(person, user)) return;
      const known = byStaff.get(person.staffId);
      if (!known || person.activity === 'editing-remarks') byStaff.set(person.staffId, person);
    });
    const others = [...byStaff.values()];
    return others.length === 0 ? NOBODY : others.sort((a, b) => rank(a) - rank(b));
  }, [people, user]);
}

const rank = (person: PresencePerson): number => (person.activity === 'editing-remarks' ? 0 : 1);

/** The newest change of the order heard on the live desk, or undefined. */
export function useOrderChange(orderId: string): OrderChangedEvent | undefined {
  return useAppSelector((state) => state.liveDesk.changes[orderKey(orderId)]);
}

/** The changes heard that added a row to the order (a comment, a mail, a download), oldest first. */
export function useOrderAdditions(orderId: string): readonly OrderChangedEvent[] {
  return useAppSelector((state) => state.liveDesk.additions[orderKey(orderId)]) ?? NOTHING_ADDED;
}

/** "Priya is viewing", "Priya is editing remarks". */
export function describePresence(person: PresencePerson): string {
  return `${person.name} is ${ACTIVITY_WORDS[person.activity]}`;
}

const joinNames = (names: string[]): string =>
  new Intl.ListFormat('en', { style: 'long', type: 'conjunction' }).format(names);

/** One sentence per activity: "Priya is editing remarks. Ben and Sam are viewing." */
export function describeOthers(people: readonly PresencePerson[]): string {
  const activities: PresenceActivity[] = ['editing-remarks', 'viewing'];
  return activities
    .map((activity) => {
      const names = people.filter((person) => person.activity === activity).map((person) => person.name);
      if (names.length === 0) return null;
      return `${joinNames(names)} ${names.length === 1 ? 'is' : 'are'} ${ACTIVITY_WORDS[activity]}.`;
    })
    .filter((sentence) => sentence !== null)
    .join(' ');
}
