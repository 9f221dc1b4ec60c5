import { describe, expect, it } from 'vitest';
import {
  isoTime,
  messageOf,
  normalizeEvent,
  normalizeMember,
  normalizeSubmission,
  unwrapForm,
  unwrapIntegration,
  unwrapList,
  unwrapWorkspace,
  UnexpectedAnswerError,
} from '../../../src/api/normalize.js';

describe('unwrapList', () => {
  it('reads a bare array', () => {
    expect(unwrapList([{ id: 1 }])).toEqual({ items: [{ id: 1 }] });
  });
  it('reads the spec {data, meta}', () => {
    expect(unwrapList({ data: [1], meta: { current_page: 1, per_page: 10, total: 1 } })).toEqual({
      items: [1],
      page: { currentPage: 1, perPage: 10, total: 1, lastPage: undefined, nextUrl: undefined },
    });
  });
  it('reads Laravel {data, links, meta} (numbers as strings too)', () => {
    expect(unwrapList({ data: [1], links: { next: null }, meta: { current_page: '2', last_page: 2, per_page: 10, total: 11 } }).page).toEqual({
      currentPage: 2,
      lastPage: 2,
      perPage: 10,
      total: 11,
      nextUrl: null,
    });
  });
  it('reads a simple paginator with top-level fields and next_page_url', () => {
    expect(unwrapList({ data: [], current_page: 1, next_page_url: 'http://x/?page=2' }).page).toMatchObject({ currentPage: 1, nextUrl: 'http://x/?page=2' });
  });
  it('reads named wrappers and refuses anything else, saying where it came from and what it was', () => {
    expect(unwrapList({ forms: [1, 2] }).items).toEqual([1, 2]);
    expect(unwrapList({ users: [3] }).items).toEqual([3]);
    for (const junk of [null, undefined, '', 'x', '<!doctype html><html>', 3, {}, { data: 'no' }, { data: { id: 1 } }]) {
      expect(() => unwrapList(junk)).toThrow(UnexpectedAnswerError);
    }
    const err = (() => {
      try {
        unwrapList({ data: {} }, { status: 200, method: 'GET', path: '/open/workspaces' });
      } catch (e) {
        return e as UnexpectedAnswerError;
      }
    })()!;
    expect(err.exitCode).toBe(1);
    expect(err.message).toBe(
      'The service sent an unexpected answer (HTTP 200, GET /open/workspaces): a list was expected, it sent an object whose data is an object.',
    );
  });
});

describe('single objects', () => {
  const form = { id: 1, slug: 'contact', title: 'Contact', properties: [] };
  it('a Form bare, as {form} (deployed create/update) or {data}', () => {
    expect(unwrapForm(form)).toBe(form);
    expect(unwrapForm({ type: 'success', message: 'Form created.', form, users_first_form: false })).toBe(form);
    expect(unwrapForm({ data: form })).toBe(form);
  });
  it('a workspace bare or as {workspace}', () => {
    const ws = { id: 3, name: 'A' };
    expect(unwrapWorkspace({ message: 'ok', workspace_id: 3, workspace: ws })).toBe(ws);
    expect(unwrapWorkspace(ws)).toBe(ws);
  });
  it('an integration as {form_integration}, {integration}, {data} or bare', () => {
    const i = { id: 9, status: 'active' };
    expect(unwrapIntegration({ message: 'm', form_integration: i })).toBe(i);
    expect(unwrapIntegration({ integration: i })).toBe(i);
    expect(unwrapIntegration({ data: i })).toBe(i);
    expect(unwrapIntegration(i)).toBe(i);
  });
  it('messageOf reads a message or falls back (204 has no body)', () => {
    expect(messageOf({ message: 'Left.' }, 'fallback')).toBe('Left.');
    expect(messageOf(undefined, 'fallback')).toBe('fallback');
  });
});

describe('normalizeMember', () => {
  it('keeps a top-level role (spec)', () => {
    expect(normalizeMember({ id: 1, role: 'admin' })).toEqual({ id: 1, role: 'admin' });
  });
  it('lifts pivot.role (deployed)', () => {
    expect(normalizeMember({ id: 2, pivot: { role: 'readonly', workspace_id: 1 } })).toMatchObject({ id: 2, role: 'readonly' });
  });
  it('says null when neither is there', () => {
    expect(normalizeMember({ id: 3 }).role).toBeNull();
  });
});

describe('normalizeEvent', () => {
  it('passes the spec shape through', () => {
    const e = {
      id: 5,
      integration_id: 2,
      event: 'submission.created',
      status: 'timeout',
      response_code: null,
      error_message: 'Timed out',
      created_at: '2025-01-01T00:00:00Z',
    };
    expect(normalizeEvent(e)).toEqual(e);
  });
  it('maps the deployed {date, status Success|Error, data}', () => {
    expect(normalizeEvent({ date: '2025-01-02 10:00', status: 'Success', data: null })).toEqual({
      id: null,
      integration_id: null,
      // The deployed record does not say which event fired (creations and updates both deliver): none is made up.
      event: null,
      status: 'success',
      response_code: null,
      error_message: null,
      created_at: '2025-01-02T10:00:00Z',
    });
    expect(normalizeEvent({ date: '2025-01-02 10:01', status: 'Error', data: { message: 'Server Error', response: null, status: 500 } })).toMatchObject({
      status: 'failed',
      response_code: 500,
      error_message: 'Server Error',
      created_at: '2025-01-02T10:01:00Z',
    });
  });
});

describe('normalizeSubmission', () => {
  it('spec item: submission_id string, submitted_at', () => {
    expect(normalizeSubmission({ submission_id: '17', submitted_at: '2025-01-01T00:00:00Z', data: { a: 1 } })).toEqual({
      submission_id: '17',
      submitted_at: '2025-01-01T00:00:00Z',
      data: { a: 1 },
      pathId: '17',
    });
  });
  it('deployed item: numeric id for paths, UUID submission_id, data.created_at as the time', () => {
    const s = normalizeSubmission({ id: 812, submission_id: '6c1f1e9e-uuid', data: { created_at: '2025-02-03 04:05:06', x: 'y' } });
    expect(s.pathId).toBe('812');
    expect(s.submission_id).toBe('6c1f1e9e-uuid');
    expect(s.submitted_at).toBe('2025-02-03T04:05:06Z');
  });
  it('falls back to a top-level created_at, then null', () => {
    expect(normalizeSubmission({ id: 1, created_at: '2025-01-01' }).submitted_at).toBe('2025-01-01');
    expect(normalizeSubmission({ id: 1 })).toMatchObject({ submitted_at: null, data: {}, submission_id: '1', pathId: '1' });
  });
});

describe('times as ISO-8601 UTC on both services', () => {
  it("the deployed service's bare times (UTC by its config) get a T and a Z; offsets move to UTC; ISO UTC and non-times stay", () => {
    expect(isoTime('2026-11-27 15:28:03')).toBe('2026-11-27T15:28:03Z');
    expect(isoTime('2026-11-27 15:32')).toBe('2026-11-27T15:32:00Z');
    expect(isoTime('2026-11-27T15:28:03.5')).toBe('2026-11-27T15:28:03.5Z');
    expect(isoTime('2026-11-27T16:28:03+01:00')).toBe('2026-11-27T15:28:03Z');
    expect(isoTime('2026-11-27T15:28:03.931+00:00')).toBe('2026-11-27T15:28:03.931Z');
    expect(isoTime('2026-11-27T15:10:06.931Z')).toBe('2026-11-27T15:10:06.931Z');
    expect(isoTime('2026-11-27T15:10:06.000000Z')).toBe('2026-11-27T15:10:06.000000Z');
    expect(isoTime('yesterday')).toBe('yesterday');
    expect(isoTime(null)).toBe(null);
  });

  it('a deployed submission and a deployed event are read with ISO times', () => {
    const s = normalizeSubmission({ id: 3, data: { created_at: '2026-11-27 18:56:35', name: 'Ada' } });
    expect(s.submitted_at).toBe('2026-11-27T18:56:35Z');
    // The answers stay as the service stored them.
    expect(s.data.created_at).toBe('2026-11-27 18:56:35');
    expect(normalizeSubmission({ id: 4, created_at: '2026-11-27 18:56:35', data: {} }).created_at).toBe('2026-11-27T18:56:35Z');
    expect(normalizeEvent({ date: '2026-11-27 15:32', status: 'Success', data: {} }).created_at).toBe('2026-11-27T15:32:00Z');
  });
});
