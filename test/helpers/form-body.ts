// Create-form bodies for tests that talk to a sandbox. The deployed OpnForm server requires on create
// every field an update requires, where the spec's service defaults ten of them (docs/service.md,
// Forms): `formBody` is the spec's minimum, `deployedFormBody` the complete body both flavours take.

/** The fields the deployed server requires on create and the spec flavour defaults, with the spec flavour's default values. */
export const DEPLOYED_STYLE: Readonly<Record<string, unknown>> = {
  theme: 'default',
  presentation_style: 'classic',
  width: 'centered',
  size: 'md',
  border_radius: 'small',
  dark_mode: 'auto',
  color: '#3B82F6',
  uppercase_labels: false,
  no_branding: false,
  transparent_background: false,
};

/** A minimal valid create-form body for the spec flavour; `over` replaces or adds fields. */
export function formBody(workspaceId: number, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    workspace_id: workspaceId,
    title: 'Contact',
    visibility: 'public',
    language: 'en',
    properties: [
      { id: 'name', type: 'text', name: 'Name', required: true },
      { id: 'email', type: 'email', name: 'Email', required: false },
    ],
    ...over,
  };
}

/** A complete create-form body, every field the deployed flavour requires (the spec flavour takes it too); `over` replaces or adds fields. */
export function deployedFormBody(workspaceId: number, over: Record<string, unknown> = {}): Record<string, unknown> {
  return formBody(workspaceId, { ...DEPLOYED_STYLE, ...over });
}
