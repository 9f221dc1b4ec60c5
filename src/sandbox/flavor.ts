import { type Ability, checkedAbility } from '../service/access.js';
import type { Flavor } from '../service/flavors.js';
import { TITLE_MAX, deployedFormInput } from '../service/forms.js';
import type { App } from './context.js';
import { deployedEventView, exportIdCode, phpInt } from './deployed.js';
import type { DispatchEvent, Integration, Role, User } from './model.js';
import { deployedIntegrationView, deployedMemberView, eventView, integrationView, memberView } from './views.js';

/**
 * Where the two flavours answer differently, in one place: each field is one difference, named for
 * what the server does, in the order docs/service.md ("Behaviour, area by area") describes them in
 * prose, with the OpnForm code it comes from cited there. Route code asks `flavorOf(app).<field>`;
 * a new difference is a new field here, never a branch on the flavour's name. The one exception is
 * which routes exist at all: a route one flavour lacks is left out where the route table registers it
 * (`r.flavor`), so that the deployed flavour answers it as Laravel answers an unknown route.
 */
export interface FlavorRules {
  readonly name: Flavor;

  // Requests in general
  /** The general rate limit counts per user (all of a user's tokens share it) on matched routes; the spec counts per client IP on every request. */
  readonly limitPerUser: boolean;
  /** Exports have a rate bucket of their own beside the general one. */
  readonly exportBucket: boolean;
  /** Write answers carry `type: "success"` beside their message. */
  readonly successType: boolean;
  /** The ability a route checks where the spec names `ability` (the deployed server has no `submissions-write` nor `workspace-users-*`). */
  readonly ability: (ability: Ability) => Ability;
  /** Unknown routes and wrong methods are answered as Laravel's router does: the path without its slashes. */
  readonly laravelRouter: boolean;
  /** A numeric path id as the server reads it: PHP's `(int)` cast (the leading digits of anything), or digits only; 0 is none. */
  readonly pathId: (raw: string) => number;

  // Workspaces and members
  /** Who may update a workspace: any member with write access, or an admin. */
  readonly workspaceUpdateBy: 'writer' | 'admin';
  /** An update without `emoji` clears the icon (`icon = emoji ?? ''`) instead of keeping it. */
  readonly absentEmojiClearsIcon: boolean;
  /** A member entry: the role beside the user, or in `pivot.role`. */
  readonly memberView: (user: User, workspaceId: number, role: Role) => Record<string, unknown>;
  /**
   * Workspace delete and member add refuse a non-admin and a token without `workspaces-write` alike,
   * with "You need to be an admin of this workspace to do this." (`requireAdminAction` in deployed.ts).
   */
  readonly adminActionAlike: boolean;
  /** The ability leaving a workspace needs. */
  readonly leaveAbility: Ability;
  /** Leaving answers 200 with a JSON message instead of 204. */
  readonly leaveAnswersJson: boolean;

  /** How a custom webhook header's length is measured: the spec's characters, or the deployed server's `strlen` bytes (src/service/webhooks.ts, headerProblems). */
  readonly headerLength: 'characters' | 'bytes';

  // Forms
  /** The rules a created form is checked with: the spec's (5 fields required, the rest defaulted) or the update rules (all 14 required). */
  readonly formCreateRules: 'create' | 'update';
  /** Create and update answer `{type, message, form}` instead of the form itself. */
  readonly formAnswerEnvelope: boolean;
  /** The longest title, in characters. */
  readonly titleMax: number;
  /** A form body (create, update) as the server's middleware and FormDataNormalizer leave it, before its rules run (`deployedFormInput`). */
  readonly formInput: (body: Record<string, unknown>) => Record<string, unknown>;

  // Submissions
  /** The list always pages in Laravel's envelope (per_page min(n, 100), 15 for 0) and filters by status; the spec gives a bare array unless asked for pages. */
  readonly laravelSubmissionList: boolean;
  /** An update rebuilds the submission from the body (every answer sent back, the rest dropped) instead of patching `data`. */
  readonly submissionUpdateRebuilds: boolean;
  /** An answer with `is_partial: true` is saved unfinished (no required check, status partial). */
  readonly partialAnswers: boolean;
  /** Field ids Laravel reads as nested keys (a dot, `*`) are never answered. */
  readonly nestedIdsUnanswered: boolean;
  /**
   * Answer bodies (update and public answer) are read as the server's middleware leaves them: every
   * string trimmed, an empty one null, inside lists too (`laravelInput` in src/service/forms.ts); the spec reads what was sent.
   */
  readonly blankStringsAreNull: boolean;
  /**
   * A multi-select answer (update or public answer) that is neither blank nor a list is 422 "The
   * <name> must be an array." (OpnForm AnswerFormRequest.php:113-114 adds Laravel's `array` rule; a
   * JSON object is a PHP array too), and an item that is null (a blank string, once `blankStringsAreNull`
   * has read it) is 422 on its own path `<id>.<n>` (AnswerFormRequest.php:124, 219-231); the spec stores what was sent.
   */
  readonly multiSelectTakesList: boolean;
  /**
   * A new submission leaves blank answers out (null, "", [], {}), unless the form's
   * `clear_empty_fields_on_update` is on; an update stores every answer sent (StoreFormSubmissionJob.php:301-306).
   */
  readonly createLeavesOutBlanks: boolean;
  /** `completion_time` (seconds) is validated and kept; the spec drops it like any unknown key. */
  readonly keepsCompletionTime: boolean;
  /** The answer endpoint names the new submission by its UUID instead of its numeric id. */
  readonly answerNamesUuid: boolean;
  /** 404 message for a missing submission. */
  readonly missingSubmission: string;

  // Exports
  /** The export status route is closed to tokens: 404 `{"message":""}`. */
  readonly exportStatusClosed: boolean;
  /** The export CSV's `id` cell for a submission id: the number, or an opaque code standing in for the server's Hashids code. */
  readonly exportIdCell: (id: number) => string;
  /**
   * An export column picks the first answer whose "{name} ({id})" key contains the column id
   * (OpnForm `api/app/Service/Forms/FormExportService.php:64`), not the field of that id.
   */
  readonly exportColumnsBySubstring: boolean;

  // Integrations
  /**
   * The server rebuilds an integration from the body: update has the create rules, any kind of
   * integration is accepted (a missing or unknown kind is a plain 500), and what is omitted is erased.
   */
  readonly integrationsRebuilt: boolean;
  /** How an integration is shown (the deployed list holds every kind, Slack and e-mail beside webhooks). */
  readonly integrationView: (i: Integration) => Record<string, unknown>;
  /** How a delivery event is shown. */
  readonly eventView: (e: DispatchEvent) => Record<string, unknown>;
  /** 404 message for a missing integration. */
  readonly missingIntegration: string;
  /** Integrations of other kinds, and deliveries logic refuses, record a successful event without a request. */
  readonly recordsUnsentDeliveries: boolean;
  /** The demo seed adds integrations of other kinds (Slack, e-mail) beside its webhook. */
  readonly seedsOtherKinds: boolean;
  /** `--unstable-ties` applies: same-second submissions come in another order on each list request, and the demo answers three to a second. */
  readonly unstableTies: boolean;
}

const SPEC: FlavorRules = {
  name: 'spec',
  limitPerUser: false,
  exportBucket: false,
  successType: false,
  ability: (a) => checkedAbility(a, false),
  laravelRouter: false,
  pathId: (raw) => (/^\d{1,15}$/.test(raw) ? Number(raw) : 0),
  workspaceUpdateBy: 'admin',
  absentEmojiClearsIcon: false,
  memberView: (user, _workspaceId, role) => memberView(user, role),
  adminActionAlike: false,
  leaveAbility: 'workspace-users-write',
  leaveAnswersJson: false,
  headerLength: 'characters',
  formCreateRules: 'create',
  formAnswerEnvelope: false,
  titleMax: TITLE_MAX.spec,
  formInput: (body) => body,
  laravelSubmissionList: false,
  submissionUpdateRebuilds: false,
  partialAnswers: false,
  nestedIdsUnanswered: false,
  blankStringsAreNull: false,
  multiSelectTakesList: false,
  createLeavesOutBlanks: false,
  keepsCompletionTime: false,
  answerNamesUuid: false,
  missingSubmission: 'Submission not found.',
  exportStatusClosed: false,
  exportIdCell: String,
  exportColumnsBySubstring: false,
  integrationsRebuilt: false,
  integrationView,
  eventView,
  missingIntegration: 'Integration not found.',
  recordsUnsentDeliveries: false,
  seedsOtherKinds: false,
  unstableTies: false,
};

const DEPLOYED: FlavorRules = {
  name: 'deployed',
  limitPerUser: true,
  exportBucket: true,
  successType: true,
  ability: (a) => checkedAbility(a, true),
  laravelRouter: true,
  pathId: phpInt,
  workspaceUpdateBy: 'writer',
  absentEmojiClearsIcon: true,
  memberView: deployedMemberView,
  adminActionAlike: true,
  leaveAbility: 'workspaces-read',
  leaveAnswersJson: true,
  headerLength: 'bytes',
  formCreateRules: 'update',
  formAnswerEnvelope: true,
  titleMax: TITLE_MAX.deployed,
  formInput: deployedFormInput,
  laravelSubmissionList: true,
  submissionUpdateRebuilds: true,
  partialAnswers: true,
  nestedIdsUnanswered: true,
  blankStringsAreNull: true,
  multiSelectTakesList: true,
  createLeavesOutBlanks: true,
  keepsCompletionTime: true,
  answerNamesUuid: true,
  missingSubmission: 'No query results for model [App\\Models\\Forms\\FormSubmission].',
  exportStatusClosed: true,
  exportIdCell: exportIdCode,
  exportColumnsBySubstring: true,
  integrationsRebuilt: true,
  integrationView: deployedIntegrationView,
  eventView: deployedEventView,
  missingIntegration: 'No query results for model [App\\Models\\Integration\\FormIntegration].',
  recordsUnsentDeliveries: true,
  seedsOtherKinds: true,
  unstableTies: true,
};

/** Each flavour's rules. */
export const FLAVOR_RULES: Readonly<Record<Flavor, FlavorRules>> = { spec: SPEC, deployed: DEPLOYED };

/** The rules of the flavour the sandbox runs as. */
export function flavorOf(app: Pick<App, 'opts'>): FlavorRules {
  return FLAVOR_RULES[app.opts.flavor];
}
