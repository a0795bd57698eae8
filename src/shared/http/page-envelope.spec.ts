import { pageEnvelope } from './page-envelope';

const path = 'http://localhost:3000/api/user/assistants/get';

describe('pageEnvelope', () => {
  it('describes an empty list', () => {
    const page = pageEnvelope([], 0, { page: 1, perPage: 10, path });
    expect(page).toMatchObject({ current_page: 1, from: null, to: null, last_page: 1, total: 0, next_page_url: null, prev_page_url: null });
    expect(page.links).toEqual([
      { url: null, label: '« Previous', active: false },
      { url: `${path}?page=1`, label: '1', active: true },
      { url: null, label: 'Next »', active: false },
    ]);
  });

  it('describes a middle page with its neighbours and keeps other query parameters', () => {
    const page = pageEnvelope([11, 12], 25, { page: 2, perPage: 10, path, query: { per_page: 10, status: 'x' } });
    expect(page).toMatchObject({
      from: 11,
      to: 12,
      last_page: 3,
      first_page_url: `${path}?per_page=10&status=x&page=1`,
      last_page_url: `${path}?per_page=10&status=x&page=3`,
      prev_page_url: `${path}?per_page=10&status=x&page=1`,
      next_page_url: `${path}?per_page=10&status=x&page=3`,
    });
    expect(page.links.map((l) => [l.label, l.active])).toEqual([
      ['« Previous', false],
      ['1', false],
      ['2', true],
      ['3', false],
      ['Next »', false],
    ]);
  });

  it('has no next page on the last page and is empty past it', () => {
    expect(pageEnvelope([21], 21, { page: 3, perPage: 10, path }).next_page_url).toBeNull();
    const past = pageEnvelope([], 21, { page: 9, perPage: 10, path });
    expect(past).toMatchObject({ from: null, to: null, next_page_url: null, prev_page_url: `${path}?page=3` });
  });

  it('elides pages far from the current one', () => {
    const labels = pageEnvelope([], 1000, { page: 50, perPage: 10, path }).links.map((l) => l.label);
    expect(labels).toEqual(['« Previous', '1', '2', '...', '47', '48', '49', '50', '51', '52', '53', '...', '99', '100', 'Next »']);
  });
});
