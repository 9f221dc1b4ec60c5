// What the invite verbs share.

/** The fields of `invite resend --json` and `invite cancel --json`. */
export const INVITE_ACTION_FIELDS = ['workspace_id', 'invite_id', 'message'] as const;
