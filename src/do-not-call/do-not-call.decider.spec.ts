import { deciderSpec } from '../testing/decider-spec';
import { DomainError } from '../shared/domain-error';
import { doNotCallDecider } from './do-not-call.decider';
import { DoNotCallEvent } from './do-not-call.events';

const { given } = deciderSpec(doNotCallDecider);
const N = '+12015550100';
const listed: DoNotCallEvent = { type: 'NumbersAddedToDoNotCall', data: { user_id: 1, phone_numbers: [N], reason: 'asked', source: 'user' } };
const removed: DoNotCallEvent = { type: 'NumberRemovedFromDoNotCall', data: { user_id: 1, phone_number: N } };
const add = (listedBefore = false) => ({
  type: 'AddToDoNotCall' as const,
  organisationId: 1,
  phoneNumber: N,
  reason: 'asked',
  source: 'user' as const,
  listedBefore,
});
const remove = (listedBefore = false) => ({ type: 'RemoveFromDoNotCall' as const, organisationId: 1, phoneNumber: N, listedBefore });
const notFound = (error: unknown) => error instanceof DomainError && error.kind === 'not_found';

describe('one number of a do-not-call list, in a stream of its own', () => {
  it('lists a number once', () => {
    given([]).when(add()).then([listed]);
    given([listed]).when(add()).then([]);
    given([listed, removed]).when(add()).then([listed]);
  });

  it('removes a listed number, and answers one not listed as not found', () => {
    given([listed]).when(remove()).then([removed]);
    given([]).when(remove()).thenThrows(notFound);
    given([listed, removed]).when(remove()).thenThrows(notFound);
  });

  it("takes the list's word for a number listed before it had a stream, and its own events' from its first on", () => {
    given([]).when(add(true)).then([]);
    given([]).when(remove(true)).then([removed]);
    given([listed, removed]).when(remove(true)).thenThrows(notFound);
  });
});
