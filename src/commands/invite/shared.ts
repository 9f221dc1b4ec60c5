// What the invite verbs share.

/** The fields of `invite resend --json` and `invite cancel --json`. */
export const INVITE_ACTION_FIELDS = ['workspace_id', 'invite_id', 'message'] as const;

/** The hint of a bad <invite-id>: an invite is named by its id (an address is not one), which `invite list` shows. */
export const INVITE_ID_HINT = 'An invite is named by its id, not its address: `formctl invite list` shows the ids.';
