/** The largest page a list endpoint of the service returns (`per_page` is clamped to it; docs/service.md). */
export const MAX_PER_PAGE = 100;
