// Every action the server writes to the audit trail has words (issue 33): the Activity page, the order timelines and
// the packs show AUDIT_ACTIONS' words, never an internal name like "portal.download". The server's code is read as
// TypeScript and every action it can write is collected: an `action` property, variable or parameter (a condition's
// branches included), and the action argument of an audit helper (the demo's rows); a template such as
// `order.dispute-${stage}` must have words for its stages (AuditAction's type checks each one where it is written).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS, AUDIT_ACTION_NAMES, auditActionLabel, auditLine, isAuditAction } from '@eta/contracts';

const SERVER_SRC = fileURLToPath(new URL('../../', import.meta.url));
/** An action's shape: a namespace and a name ('order.intake', 'landing-site.legal-text'). */
const ACTION_SHAPE = /^[a-z]+(-[a-z]+)*\.[a-z]+(-[a-z]+)*$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts')
      ? [full]
      : [];
  });
}

interface Written {
  /** Whole actions, with where they are written. */
  actions: Map<string, string>;
  /** The fixed start of actions written as a template ('order.dispute-'), with where. */
  prefixes: Map<string, string>;
}

/** The action values an expression can take: its literals, either branch of a condition, a template's start. */
function collect(node: ts.Expression, where: string, out: Written, onlyShaped = false): void {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
    if (!onlyShaped || ACTION_SHAPE.test(node.text)) out.actions.set(node.text, where);
  } else if (ts.isTemplateExpression(node)) {
    if (/^[a-z-]+\.[a-z-]+$/.test(node.head.text)) out.prefixes.set(node.head.text, where);
  } else if (ts.isConditionalExpression(node)) {
    collect(node.whenTrue, where, out, onlyShaped);
    collect(node.whenFalse, where, out, onlyShaped);
  } else if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node)) {
    collect(node.expression, where, out, onlyShaped);
  }
}

const isNamedAction = (name: ts.Node | undefined) =>
  name !== undefined && ts.isIdentifier(name) && name.text === 'action';

/** Every action the server's code writes, wherever it is written. */
function writtenActions(): Written {
  const out: Written = { actions: new Map(), prefixes: new Map() };
  for (const file of sourceFiles(SERVER_SRC)) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      const where = `${path.relative(SERVER_SRC, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
      if (
        (ts.isPropertyAssignment(node) || ts.isVariableDeclaration(node) || ts.isParameter(node)) &&
        isNamedAction(node.name) &&
        node.initializer
      ) {
        collect(node.initializer, where, out, true);
      }
      // An audit helper's arguments (the demo's `this.audit(…, 'order.remark', …)`): the ones shaped as an action.
      if (ts.isCallExpression(node) && /(^|\.)audit$/.test(node.expression.getText(source))) {
        for (const argument of node.arguments) collect(argument, where, out, true);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return out;
}

describe('audit actions in words', () => {
  const written = writtenActions();

  it('finds the actions written in every form (the walk is not blind)', () => {
    for (const action of [
      'order.intake', // a property
      'portal.download',
      'order.restore', // a condition's branch
      'security.lockout',
      'subject.access', // a parameter's default
      'subject.erasure', // an audit helper's argument
      'order.remark',
    ]) {
      expect(written.actions.has(action), action).toBe(true);
    }
    expect([...written.prefixes.keys()]).toContain('order.dispute-');
    expect(written.actions.size).toBeGreaterThan(40);
  });

  it('has words for every action the server writes', () => {
    const missing = [...written.actions].filter(([action]) => !isAuditAction(action));
    expect(missing.map(([action, where]) => `${action} (${where})`)).toEqual([]);
    for (const [prefix, where] of written.prefixes) {
      expect(
        AUDIT_ACTION_NAMES.filter((a) => a.startsWith(prefix)),
        `${prefix}… (${where})`,
      ).not.toEqual([]);
    }
    // A dispute's three stages, written as `order.dispute-${stage}` by the webhooks and the demo.
    for (const stage of ['created', 'updated', 'closed']) expect(isAuditAction(`order.dispute-${stage}`)).toBe(true);
  });

  it('says each one in words, not as its internal name', () => {
    const facts = { actor: 'Customer', site: 'Canada eTA Online', after: null };
    for (const action of AUDIT_ACTION_NAMES) {
      const label = auditActionLabel(action);
      expect(label, action).toMatch(/^[A-Z][a-z]/);
      expect(label, action).not.toMatch(/[a-z]\.[a-z]/);
      const line = auditLine(action, facts);
      if (line !== undefined) expect(line, action).not.toContain(action);
    }
    expect(new Set(AUDIT_ACTION_NAMES.map(auditActionLabel)).size).toBe(AUDIT_ACTION_NAMES.length);
  });

  it('puts what the customer, a landing site and a gateway did in a line naming them', () => {
    expect(auditLine('portal.download', { actor: 'Customer', site: 'Canada eTA Online', after: null })).toBe(
      'Customer downloaded the approved eTA',
    );
    expect(auditLine('order.intake', { actor: 'Landing site default', site: 'Canada eTA Online', after: null })).toBe(
      'Order received from Canada eTA Online',
    );
    expect(auditLine('order.dispute-created', { actor: 'Stripe', site: 'Canada eTA Online', after: null })).toBe(
      'Stripe opened a chargeback',
    );
    expect(
      auditLine('order.payment-checked', { actor: 'PayPal', site: 'x', after: { payment_status: 'Success' } }),
    ).toBe('PayPal checked the payment: Success');
    // A staff member's action is their name and the label.
    expect(auditLine('order.assign', { actor: 'Rajesh Menon', site: 'x', after: null })).toBeUndefined();
    expect(AUDIT_ACTIONS['order.assign'].label).toBe('Assigned');
    // An action a newer server wrote reads as stored rather than not at all.
    expect(auditActionLabel('order.something-new')).toBe('order.something-new');
  });
});
