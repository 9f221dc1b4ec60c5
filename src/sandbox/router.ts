/**
 * A small path router: patterns like `/open/forms/:form/submissions/:submission`.
 * When several patterns match, the one with a static segment earliest wins (`/export` beats
 * `/:submission`); a path that matches only with another method gives the allowed methods (→ 405).
 */
export interface Match<H> {
  handler: H;
  params: Record<string, string>;
}

interface Pattern<H> {
  segments: string[];
  /** 1 for a static segment, 0 for a parameter: compared left to right to rank patterns. */
  rank: number[];
  methods: Map<string, H>;
}

export class Router<H> {
  private readonly byLength = new Map<number, Pattern<H>[]>();

  /** Registers a handler for a method and a pattern. */
  add(method: string, path: string, handler: H): void {
    const segments = path.split('/').filter(Boolean);
    let list = this.byLength.get(segments.length);
    if (!list) this.byLength.set(segments.length, (list = []));
    let pattern = list.find((p) => p.segments.join('/') === segments.join('/'));
    if (!pattern) {
      pattern = { segments, rank: segments.map((s) => (s.startsWith(':') ? 0 : 1)), methods: new Map() };
      list.push(pattern);
      list.sort((a, b) => compareRank(b.rank, a.rank));
    }
    pattern.methods.set(method, handler);
  }

  /** The handler and params for a request, `{allow}` when only other methods match, or null (→ 404). */
  match(method: string, pathname: string): Match<H> | { allow: string[] } | null {
    let parts: string[];
    try {
      parts = pathname.split('/').filter(Boolean).map(decodeURIComponent);
    } catch {
      return null;
    }
    let allow: string[] | undefined;
    for (const pattern of this.byLength.get(parts.length) ?? []) {
      const params = matchSegments(pattern.segments, parts);
      if (!params) continue;
      const handler = pattern.methods.get(method);
      if (handler) return { handler, params };
      allow ??= [...pattern.methods.keys()];
    }
    return allow ? { allow } : null;
  }
}

function compareRank(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

function matchSegments(segments: string[], parts: string[]): Record<string, string> | null {
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    if (seg.startsWith(':')) params[seg.slice(1)] = parts[i]!;
    else if (seg !== parts[i]) return null;
  }
  return params;
}
