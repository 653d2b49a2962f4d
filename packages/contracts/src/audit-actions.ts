// What each action of the audit trail means, in words (issue 33): ONE table for every place that shows the trail —
// the Activity page (its Action column and filter), an order's timeline, the defence packs and a subject-access
// export. Every action any code writes is a key here: the audit row's type says so (AuditEntry.action), and a test
// walks the server's code for every action it writes (apps/server/src/modules/audit/audit-actions.test.ts).

/** What an order's timeline knows when it puts a row made by no staff member into words. */
export interface AuditLineFacts {
  /** Who the row names: 'Customer', a gateway ('Stripe'), a landing site's intake ('Landing site default'). */
  actor: string;
  /** The order's landing site, by its display name ('Canada eTA Online'). */
  site: string;
  /** The row's record of the order after it (its `after`). */
  after: Record<string, unknown> | null;
}

interface AuditActionWords {
  /**
   * What happened, in a few words: the Activity page's Action column and filter, and on an order's timeline after
   * the name of the staff member who did it ("Rajesh Menon Assigned (New → Pending)").
   */
  label: string;
  /**
   * For a row no staff member made (the customer, a gateway, a landing site): the whole line of an order's timeline,
   * naming who or what acted ("Customer downloaded the approved eTA").
   */
  line?: (facts: AuditLineFacts) => string;
}

export const AUDIT_ACTIONS = {
  // Security events first: the filter offers them in this order.
  'security.login-failed': { label: 'Sign-in failed' },
  'security.lockout': { label: 'Account locked after failed sign-ins' },
  'security.login-during-lock': { label: 'Signed in while the account was locked elsewhere' },
  'security.forbidden': { label: 'Refused: not allowed for this role' },
  'security.track-failed': { label: 'Order tracking refused (order id and e-mail do not match)' },
  'security.code-failed': { label: 'Sign-in code or passkey refused' },
  'security.sso-refused': { label: 'Single sign-on refused' },
  'security.proof-failed': { label: 'Identity check failed (password or code wrong)' },
  'staff.login': { label: 'Signed in' },
  'staff.logout': { label: 'Signed out' },
  'staff.change-password': { label: 'Password changed' },
  'staff.totp-enrolled': { label: 'Authenticator app set up' },
  'staff.totp-removed': { label: 'Authenticator app removed' },
  'staff.recovery-codes': { label: 'New recovery codes made' },
  'staff.passkey-added': { label: 'Passkey added' },
  'staff.passkey-removed': { label: 'Passkey removed' },
  'staff.created-by-sso': { label: 'Team member created at their first single sign-on' },
  'staff.session-ended': { label: 'Session ended' },
  'staff.sessions-ended': { label: 'All other sessions ended' },
  'staff.factors-reset': { label: 'Second factors reset by an Admin' },
  'staff.sign-in-policy': { label: 'Sign-in policy changed' },
  'staff.bootstrap-admin': { label: 'First Admin account created' },
  'team.add': { label: 'Team member added' },
  'team.update': { label: 'Team member changed' },
  'team.delete': { label: 'Team member deleted' },
  'gateway.activate': { label: 'Payment gateway activated' },
  'desk.processing-targets': { label: 'Target times changed' },
  'order.intake': { label: 'Order received', line: ({ site }) => `Order received from ${site}` },
  'order.payment-checked': {
    label: 'Payment checked with the gateway',
    line: ({ actor, after }) =>
      typeof after?.payment_status === 'string'
        ? `${actor} checked the payment: ${after.payment_status}`
        : `${actor} checked the payment`,
  },
  'order.assign': { label: 'Assigned' },
  'order.move-to-new': { label: 'Moved to New orders' },
  'order.change-status': { label: 'Status changed' },
  'order.delete': { label: 'Deleted' },
  'order.restore': { label: 'Restored to New' },
  'order.refund-completed': { label: 'Refund completed' },
  'order.refunded-at-gateway': {
    label: 'Refunded at the gateway',
    line: ({ actor }) => `${actor} reported the payment refunded`,
  },
  'order.remark': { label: 'Comment added' },
  'order.transaction-details': { label: 'Transaction details saved' },
  'order.upload-document': { label: 'Approved document uploaded' },
  'order.document-sent-unmatched': { label: 'Sent the approval though the desk could not match it to the traveller' },
  'order.document-email-changed': { label: "Mailed the approval to another address than the order's" },
  'mail.resend': { label: 'Approval mail resent' },
  'order.invoice': { label: 'Invoice sent' },
  'portal.download': {
    label: 'Approved eTA downloaded from the portal',
    line: ({ actor }) => `${actor} downloaded the approved eTA`,
  },
  'order.dispute-created': { label: 'Chargeback opened', line: ({ actor }) => `${actor} opened a chargeback` },
  'order.dispute-updated': { label: 'Chargeback updated', line: ({ actor }) => `${actor} updated the chargeback` },
  'order.dispute-closed': { label: 'Chargeback closed', line: ({ actor }) => `${actor} closed the chargeback` },
  'dispute.evidence-submitted': { label: 'Chargeback evidence submitted to the gateway' },
  'dispute.evidence-saved': { label: 'Chargeback evidence saved as a draft at the gateway' },
  'order.erase': { label: 'Personal data erased' },
  'order.legal-hold': { label: 'Legal hold placed' },
  'order.legal-hold-release': { label: 'Legal hold released' },
  'retention.policy': { label: 'Retention period changed' },
  'retention.run': { label: 'Retention run started' },
  'subject.access': { label: 'Subject-access request answered' },
  'subject.erasure': { label: 'Erasure request handled' },
  'landing-site.create': { label: 'Landing site added' },
  'landing-site.branding': { label: 'Landing site branding changed' },
  'landing-site.logo': { label: 'Landing site logo changed' },
  'landing-site.intake-key': { label: 'Intake key issued' },
  'landing-site.legal-text': { label: 'Legal texts published' },
  'access.alert-acknowledge': { label: 'Unusual-reading alert acknowledged' },
} as const satisfies Record<string, AuditActionWords>;

/** An action the audit trail records. */
export type AuditAction = keyof typeof AUDIT_ACTIONS;

/** Every action, security events first (the Activity page's filter). */
export const AUDIT_ACTION_NAMES = Object.keys(AUDIT_ACTIONS) as AuditAction[];

export const isAuditAction = (action: string): action is AuditAction => Object.hasOwn(AUDIT_ACTIONS, action);

/** The action in words; one this version does not know (written by a newer server) reads as it is stored. */
export const auditActionLabel = (action: string): string =>
  isAuditAction(action) ? AUDIT_ACTIONS[action].label : action;

/**
 * An order's timeline line for a row no staff member made, in words naming its source; undefined for a staff
 * member's row, which the timeline shows as their name and the label.
 */
export function auditLine(action: string, facts: AuditLineFacts): string | undefined {
  if (!isAuditAction(action)) return undefined;
  const words: AuditActionWords = AUDIT_ACTIONS[action];
  return words.line?.(facts);
}
