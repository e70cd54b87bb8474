import { EndpointRotation } from '../src/webhooks/endpointRotation';

const idle = () => false;

describe('EndpointRotation', () => {
  test('when endpoints have been looked at, then the one looked at longest ago comes first and new ones before both', () => {
    const rotation = new EndpointRotation();
    rotation.looked('a', 100);
    rotation.looked('b', 50);
    expect(rotation.next(['a', 'b', 'c'], 200, idle, 10)).toEqual(['c', 'b', 'a']);
  });

  test('when an endpoint waits for a retry, then it is skipped until then and comes back after', () => {
    const rotation = new EndpointRotation();
    rotation.wait('a', 500);
    expect(rotation.next(['a', 'b'], 499, idle, 10)).toEqual(['b']);
    expect(rotation.next(['a', 'b'], 500, idle, 10)).toEqual(['a', 'b']);
  });

  test('when endpoints are busy or over the limit, then they are left for a later round', () => {
    const rotation = new EndpointRotation();
    expect(rotation.next(['a', 'b', 'c'], 0, (id) => id === 'a', 1)).toEqual(['b']);
  });

  test("when an endpoint's queue empties, then what was known of it is forgotten", () => {
    const rotation = new EndpointRotation();
    rotation.looked('a', 100);
    rotation.wait('a', 1_000);
    rotation.next(['b'], 0, idle, 10);
    rotation.looked('b', 200);
    expect(rotation.next(['a', 'b'], 300, idle, 10)).toEqual(['a', 'b']);
  });
});
