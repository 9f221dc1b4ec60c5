// Conditional logic of a webhook integration ("logic" in the spec; its shape is not shown there).
// The sandbox understands the condition tree the OpnForm builder produces:
//   group: { operatorIdentifier: "and" | "or", children: [node, …] }
//   leaf:  { identifier: "<property id>", value: { operator: "<op>", value: <expected> } }
// either directly or wrapped as { conditions: node }. It is validated when saved, so a stored logic
// can always be evaluated; `null` or `{}` means "always deliver".
import { isBlank, isObject } from './validation.js';

function contains(a: unknown, e: unknown): boolean {
  return Array.isArray(a) ? a.some((x) => same(x, e)) : typeof a === 'string' && a.includes(String(e));
}

const OPERATORS = {
  equals: (a: unknown, e: unknown) => same(a, e),
  does_not_equal: (a: unknown, e: unknown) => !same(a, e),
  contains,
  does_not_contain: (a: unknown, e: unknown) => !contains(a, e),
  starts_with: (a: unknown, e: unknown) => typeof a === 'string' && a.startsWith(String(e)),
  ends_with: (a: unknown, e: unknown) => typeof a === 'string' && a.endsWith(String(e)),
  is_empty: (a: unknown) => isBlank(a),
  is_not_empty: (a: unknown) => !isBlank(a),
  greater_than: (a: unknown, e: unknown) => compare(Number(a), Number(e), (x, y) => x > y),
  less_than: (a: unknown, e: unknown) => compare(Number(a), Number(e), (x, y) => x < y),
  greater_than_or_equal_to: (a: unknown, e: unknown) => compare(Number(a), Number(e), (x, y) => x >= y),
  less_than_or_equal_to: (a: unknown, e: unknown) => compare(Number(a), Number(e), (x, y) => x <= y),
  is_checked: (a: unknown) => a === true,
  is_not_checked: (a: unknown) => a !== true,
  before: (a: unknown, e: unknown) => compare(date(a), date(e), (x, y) => x < y),
  after: (a: unknown, e: unknown) => compare(date(a), date(e), (x, y) => x > y),
  on_or_before: (a: unknown, e: unknown) => compare(date(a), date(e), (x, y) => x <= y),
  on_or_after: (a: unknown, e: unknown) => compare(date(a), date(e), (x, y) => x >= y),
} satisfies Record<string, (actual: unknown, expected: unknown) => boolean>;

type Operator = keyof typeof OPERATORS;

/** Scalars compare as strings ("5" equals 5); a list equals a list with the same items or a single matching item. */
function same(a: unknown, e: unknown): boolean {
  if (Array.isArray(a)) {
    if (Array.isArray(e)) return a.length === e.length && e.every((x) => a.some((y) => same(y, x)));
    return a.length === 1 && same(a[0], e);
  }
  if (a == null || e == null) return a == null && e == null;
  return String(a) === String(e);
}

function date(v: unknown): number {
  return typeof v === 'string' ? Date.parse(v) : Number.NaN;
}

function compare(a: number, b: number, op: (x: number, y: number) => boolean): boolean {
  return !Number.isNaN(a) && !Number.isNaN(b) && op(a, b);
}

function rootOf(logic: Record<string, unknown>): unknown {
  return 'conditions' in logic ? logic.conditions : logic;
}

function nodeProblem(node: unknown, depth: number): string | null {
  if (depth > 10) return 'is nested too deeply (at most 10 levels)';
  if (!isObject(node)) return 'must be an object';
  if ('operatorIdentifier' in node) {
    if (node.operatorIdentifier !== 'and' && node.operatorIdentifier !== 'or') return 'has an operatorIdentifier other than "and" or "or"';
    if (!Array.isArray(node.children) || node.children.length === 0) return 'has a group without children';
    for (const child of node.children) {
      const problem = nodeProblem(child, depth + 1);
      if (problem) return problem;
    }
    return null;
  }
  if (typeof node.identifier !== 'string' || node.identifier === '') return 'has a condition without an identifier (property id)';
  if (!isObject(node.value) || typeof node.value.operator !== 'string') return 'has a condition without value.operator';
  if (!(node.value.operator in OPERATORS)) return `uses the unknown operator "${node.value.operator}" (known: ${Object.keys(OPERATORS).join(', ')})`;
  return null;
}

/** Why a logic value cannot be stored, or null when it is fine (null and {} are fine). */
export function logicProblem(logic: unknown): string | null {
  if (logic === null || logic === undefined) return null;
  if (!isObject(logic)) return 'The logic field must be an object or null.';
  if (Object.keys(logic).length === 0) return null;
  const root = rootOf(logic);
  if (root === null) return null;
  const problem = nodeProblem(root, 0);
  return problem ? `The logic ${problem}.` : null;
}

function evaluate(node: Record<string, unknown>, data: Record<string, unknown>): boolean {
  if ('operatorIdentifier' in node) {
    const children = node.children as Record<string, unknown>[];
    return node.operatorIdentifier === 'and' ? children.every((c) => evaluate(c, data)) : children.some((c) => evaluate(c, data));
  }
  const value = node.value as { operator: Operator; value?: unknown };
  return OPERATORS[value.operator](data[node.identifier as string], value.value);
}

/** Whether a (validated) logic lets a submission with these answers through. */
export function logicAllows(logic: Record<string, unknown> | null, data: Record<string, unknown>): boolean {
  if (!logic || Object.keys(logic).length === 0) return true;
  const root = rootOf(logic);
  return root === null || evaluate(root as Record<string, unknown>, data);
}
