// The order's Chargeback panel and Submit evidence (issue 21), walked in the whole console as a person would: what
// the gateway says of the dispute and its history, who may answer it, the preview of each defence pack with its
// PDF, a draft, a final submission that asks first, and the server's words when the gateway refuses.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Dispute, EvidencePreview, StaffType } from '@eta/contracts';
import { ok, stubApi, type RecordedCall, type StubHandler, type StubReply } from '../../../test/api-stub';
import { DETAIL_ORDER_ID, detailReply, dispute, isDetailCall, orderDetails } from '../../../test/order-details';
import { FOLDER_COUNTS, isFolderCountCall } from '../../../test/orders';
import { preloadRoutes, renderRoutes } from '../../../test/render';
import { signIn } from '../../../test/session';
import { encodeOrderId } from '../../../lib/order-id';

beforeAll(preloadRoutes);

/** The whole console renders in each test: 1-5 s in jsdom, more on a busy machine. */
const WHOLE_CONSOLE = { timeout: 20_000 };

const DISPUTES = `/api/admin/disputes/${DETAIL_ORDER_ID}`;
const EVIDENCE = `${DISPUTES}/evidence`;
const EVIDENCE_PDF = `${DISPUTES}/evidence.pdf`;

const preview = (type: number): EvidencePreview => ({
  gateway_name: 'Stripe',
  dispute_id: 'dp_1QxDispute0001',
  fields: [
    { name: 'customer_name', value: 'Maria Lopez' },
    { name: 'customer_email_address', value: 'maria@example.com' },
    { name: 'access_activity_log', value: `Pack ${type}: ${'2026-11-20 download from 203.0.113.5\n'.repeat(30)}` },
  ],
  fileName: `defence-pack-${type}-${DETAIL_ORDER_ID}.pdf`,
  drafts: true,
});

/** The server as the panel meets it: the order, its disputes (changed by what is sent), the previews. */
function renderOrder(
  disputes: Dispute[],
  { role = 'Manager' as StaffType, handler = (() => undefined) as StubHandler } = {},
) {
  const token = signIn('Rajesh Menon', role);
  let current = disputes;
  const api = stubApi((call) => {
    if (isFolderCountCall(call)) return ok(FOLDER_COUNTS);
    const reply = handler(call);
    if (reply) return reply;
    if (isDetailCall(call)) return detailReply(orderDetails({ process_status: 'ChargeBack' }));
    if (call.method === 'GET' && call.path === DISPUTES) return ok(current);
    if (call.method === 'GET' && call.path === EVIDENCE) return ok(preview(Number(call.query.get('defencePackType'))));
    if (call.method === 'POST' && call.path === EVIDENCE) {
      const { defencePackType, submit } = call.body as { defencePackType: number; submit: boolean };
      const [newest, ...older] = current;
      const sent: Dispute = {
        ...newest!,
        evidence_state: submit ? 'submitted' : 'draft',
        evidence_pack_type: defencePackType,
        evidence_by: 'Rajesh Menon',
        evidence_at: '2026-11-21T10:15:00.000Z',
        status: submit ? 'under_review' : newest!.status,
      };
      current = [sent, ...older];
      return ok(
        sent,
        submit ? 'The evidence was submitted to Stripe.' : 'The evidence was saved at Stripe as a draft.',
      );
    }
    return undefined;
  });
  renderRoutes(`/admin/view-order/${encodeOrderId(DETAIL_ORDER_ID)}`);
  return { api, token };
}

/** The first render of the whole console in a test file may take seconds (see WHOLE_CONSOLE). */
const panel = () => screen.findByRole('region', { name: 'Chargeback' }, { timeout: 5000 });
/** The value next to a label in the panel's rows. */
function rowValue(region: HTMLElement, label: string): string | null {
  const term = within(region)
    .queryAllByRole('term')
    .find((dt) => dt.textContent === label);
  return term ? (term.nextElementSibling?.textContent ?? '') : null;
}
const evidenceCalls = (api: ReturnType<typeof stubApi>) =>
  api.calls.filter((call: RecordedCall) => call.path === EVIDENCE);

async function openDialog() {
  await userEvent.click(within(await panel()).getByRole('button', { name: 'Submit evidence' }));
  return screen.findByRole('dialog', { name: 'Submit evidence' });
}

describe('Chargeback panel', WHOLE_CONSOLE, () => {
  it('offers no Save draft where the gateway keeps no drafts (PayPal): Submit only', async () => {
    renderOrder([dispute({ gateway_name: 'PayPal' }, { now: new Date(), dueInDays: 5 })], {
      handler: (call) =>
        call.method === 'GET' && call.path === EVIDENCE
          ? ok({
              ...preview(1),
              gateway_name: 'PayPal',
              fields: [{ name: 'Customer name', value: 'Maria Lopez' }],
              drafts: false,
            })
          : undefined,
    });
    const dialog = await openDialog();
    await within(dialog).findByText('Maria Lopez');
    expect(within(dialog).queryByRole('button', { name: 'Save draft' })).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Submit' })).toBeTruthy();
  });

  it('shows the dispute, its due date with the days left and its history; a Team member cannot answer it', async () => {
    const now = new Date();
    const open = dispute({}, { now, dueInDays: 5 });
    renderOrder([open], { role: 'Team' });
    const region = await panel();

    expect(rowValue(region, 'Gateway')).toBe('Stripe');
    expect(rowValue(region, 'Dispute id')).toBe('dp_1QxDispute0001');
    expect(rowValue(region, 'Reason')).toBe('Product not received');
    expect(rowValue(region, 'Amount')).toBe('89.00 USD');
    expect(rowValue(region, 'Status')).toBe('Needs response');
    const due = open.evidence_due_by!.slice(0, 10).split('-').reverse().join('/');
    expect(rowValue(region, 'Evidence due')).toBe(`${due} (5 days left)`);
    expect(rowValue(region, 'Outcome')).toBe('Not decided yet');
    expect(rowValue(region, 'Evidence')).toBe('Not sent yet');
    expect(within(region).getByText('5 days left')).toBeTruthy();
    const history = within(region).getByRole('list', { name: 'Dispute history, oldest first' });
    expect(within(history).getAllByRole('listitem')[0]!.textContent).toContain(
      'Stripe Chargeback opened at Stripe: product_not_received, 89.00 USD (dispute dp_1QxDispute0001).',
    );

    expect(within(region).queryByRole('button', { name: 'Submit evidence' })).toBeNull();
    expect(within(region).getByText('An Admin or a Manager sends the evidence for this dispute.')).toBeTruthy();
  });

  it('is not there for an order without a dispute', async () => {
    const { api } = renderOrder([]);
    await screen.findByRole('region', { name: 'Order summary' });
    await waitFor(() => expect(api.callsTo('GET', DISPUTES)).toHaveLength(1));
    // The answer (none) has arrived once the fetch's promise settles.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('region', { name: 'Chargeback' })).toBeNull();
    expect(screen.queryByText(/chargebacks could not be loaded/)).toBeNull();
  });

  it('marks an overdue dispute in red, and a decided one as won with no Submit evidence', async () => {
    const overdue = dispute({ dispute_id: 'dp_new' }, { dueInDays: -3 });
    const decided = dispute({
      dispute_id: 'dp_old',
      outcome: 'won',
      outcome_at: '2026-02-01T12:00:00.000Z',
      status: 'won',
      evidence_state: 'submitted',
      evidence_pack_type: 1,
      evidence_by: 'Grace Whitfield',
      evidence_at: '2026-01-20T09:00:00.000Z',
    });
    renderOrder([overdue, decided]);
    const region = await panel();
    const newest = within(region).getByRole('article', { name: 'Dispute dp_new' });
    expect(within(newest).getByText('Overdue 3 days').closest('.MuiChip-root')!.className).toContain(
      'MuiChip-colorError',
    );
    expect(within(newest).getByRole('button', { name: 'Submit evidence' })).toBeTruthy();

    const old = within(region).getByRole('article', { name: 'Dispute dp_old' });
    expect(rowValue(old, 'Outcome')).toBe('Won on 01/02/2026');
    expect(rowValue(old, 'Evidence')).toBe(
      'Submitted for review by Grace Whitfield on 20/01/2026 09:00:00 UTC (defence pack 1)',
    );
    expect(within(old).getByText('Won', { selector: '.MuiChip-label' })).toBeTruthy();
    expect(within(old).queryByRole('button', { name: 'Submit evidence' })).toBeNull();
  });

  it('says so, with Try again, when the disputes cannot be loaded', async () => {
    let fail = true;
    renderOrder([dispute()], {
      handler: (call) =>
        fail && call.path === DISPUTES
          ? { status: 500, body: { status: 0, code: 'INTERNAL', message: 'Something went wrong on our side.' } }
          : undefined,
    });
    const alert = await screen.findByText(/The order's chargebacks could not be loaded\./);
    expect(alert.textContent).toContain('Something went wrong on our side.');
    fail = false;
    await userEvent.click(
      within(alert.closest('.MuiAlert-root') as HTMLElement).getByRole('button', { name: 'Try again' }),
    );
    expect(await panel()).toBeTruthy();
  });
});

describe('Submit evidence', WHOLE_CONSOLE, () => {
  function stubNewTab() {
    const tab = {
      opener: {} as unknown,
      closed: false,
      location: { href: 'about:blank' },
      document: { title: '', body: { textContent: '' } },
      close() {
        this.closed = true;
      },
    };
    vi.stubGlobal(
      'open',
      vi.fn(() => tab as unknown as Window),
    );
    class UrlWithObjects extends URL {
      static override createObjectURL = vi.fn((_blob: Blob) => 'blob:http://localhost/evidence');
      static override revokeObjectURL = vi.fn();
    }
    vi.stubGlobal('URL', UrlWithObjects);
    return tab;
  }

  it('previews each pack, opens its PDF, saves a draft, then submits after confirming', async () => {
    const tab = stubNewTab();
    const { api, token } = renderOrder([dispute()], {
      handler: (call): StubReply | undefined =>
        call.path === EVIDENCE_PDF
          ? { body: null, raw: { content: '%PDF-1.7\n%evidence\n', contentType: 'application/pdf' } }
          : undefined,
    });
    let dialog = await openDialog();

    // Pack 1 first: the fields Stripe would get, by Stripe's names; a long value scrolls in its own box.
    await within(dialog).findByText('defence-pack-1-ETA-200020076.pdf');
    expect(within(dialog).getByText('customer_name')).toBeTruthy();
    expect(within(dialog).getByText('Maria Lopez')).toBeTruthy();
    const log = within(dialog).getByText(/^Pack 1: /);
    expect(log.style.maxHeight || getComputedStyle(log).maxHeight).toBe('128px');
    expect(evidenceCalls(api).map((call) => call.query.get('defencePackType'))).toEqual(['1']);

    await userEvent.click(within(dialog).getByRole('radio', { name: /^Defence pack 2/ }));
    await within(dialog).findByText('defence-pack-2-ETA-200020076.pdf');
    expect(within(dialog).getByText(/^Pack 2: /)).toBeTruthy();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Open the PDF' }));
    await waitFor(() => expect(tab.location.href).toBe('blob:http://localhost/evidence'));
    const pdfCall = api.calls.find((call) => call.path === EVIDENCE_PDF)!;
    expect(pdfCall.query.get('defencePackType')).toBe('2');
    expect(pdfCall.headers.Authorization).toBe(token);

    // A draft: kept at Stripe, the dialog closes, the panel says who saved it.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save draft' }));
    expect(await screen.findByText('The evidence was saved at Stripe as a draft.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Submit evidence' })).toBeNull());
    const region = await panel();
    await waitFor(() =>
      expect(rowValue(region, 'Evidence')).toBe(
        'Draft saved at Stripe by Rajesh Menon on 21/11/2026 10:15:00 UTC (defence pack 2)',
      ),
    );
    expect(within(region).getByText('Draft saved')).toBeTruthy();

    // Submit asks first: it is final. No sends nothing.
    dialog = await openDialog();
    await within(dialog).findByText('defence-pack-2-ETA-200020076.pdf');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Submit' }));
    let confirm = await screen.findByRole('dialog', { name: 'Submit the evidence to Stripe?' });
    expect(within(confirm).getByText(/This is final/)).toBeTruthy();
    await userEvent.click(within(confirm).getByRole('button', { name: 'No' }));
    expect(api.callsTo('POST', EVIDENCE)).toHaveLength(1);

    // Back in the dialog once the question has gone.
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Submit' }));
    confirm = await screen.findByRole('dialog', { name: 'Submit the evidence to Stripe?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Yes, submit' }));
    expect(await screen.findByText('The evidence was submitted to Stripe.')).toBeTruthy();
    expect(api.callsTo('POST', EVIDENCE).map((call) => call.body)).toEqual([
      { defencePackType: 2, submit: false },
      { defencePackType: 2, submit: true },
    ]);
    await waitFor(() =>
      expect(rowValue(region, 'Evidence')).toBe(
        'Submitted for review by Rajesh Menon on 21/11/2026 10:15:00 UTC (defence pack 2)',
      ),
    );
    expect(within(region).getByText('Evidence submitted')).toBeTruthy();
    expect(within(region).queryByRole('button', { name: 'Submit evidence' })).toBeNull();
  });

  it("keeps the dialog open with the gateway's message when the gateway refuses", async () => {
    const message =
      'Stripe refused the evidence: the dispute is no longer accepting evidence. Check the dispute in the Stripe dashboard.';
    const { api } = renderOrder([dispute()], {
      handler: (call) =>
        call.method === 'POST' && call.path === EVIDENCE
          ? { status: 502, body: { status: 0, code: 'GATEWAY_ERROR', message } }
          : undefined,
    });
    const dialog = await openDialog();
    await within(dialog).findByText('defence-pack-1-ETA-200020076.pdf');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save draft' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain(message);
    expect(screen.getByRole('dialog', { name: 'Submit evidence' })).toBeTruthy();
    expect(api.callsTo('POST', EVIDENCE)).toHaveLength(1);
  });

  it('closes with a warning and shows what was sent when someone else submitted meanwhile', async () => {
    let submitted = false;
    const message =
      'The evidence for dispute dp_1QxDispute0001 was already submitted; Stripe is reviewing it and it cannot be sent again.';
    renderOrder([dispute()], {
      handler: (call) => {
        if (call.method === 'POST' && call.path === EVIDENCE) {
          submitted = true;
          return { status: 409, body: { status: 0, code: 'EVIDENCE_SUBMITTED', message } };
        }
        if (submitted && call.method === 'GET' && call.path === DISPUTES) {
          return ok([dispute({ evidence_state: 'submitted', evidence_by: 'Grace Whitfield', evidence_pack_type: 1 })]);
        }
        return undefined;
      },
    });
    const dialog = await openDialog();
    await within(dialog).findByText('defence-pack-1-ETA-200020076.pdf');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Submit' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Submit the evidence to Stripe?' })).getByRole('button', {
        name: 'Yes, submit',
      }),
    );
    const toast = await screen.findByText(message);
    expect(toast.closest('.Toastify__toast')!.className).toContain('Toastify__toast--warning');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Submit evidence' })).toBeNull());
    const region = await panel();
    await waitFor(() =>
      expect(rowValue(region, 'Evidence')).toBe('Submitted for review by Grace Whitfield (defence pack 1)'),
    );
  });

  it("explains in the dialog why a gateway's dispute cannot be answered from the desk", async () => {
    const message = "Authorize.Net takes no evidence through the desk: answer it in Authorize.Net's own dashboard.";
    renderOrder([dispute({ gateway_name: 'Authorize.Net' })], {
      handler: (call) =>
        call.method === 'GET' && call.path === EVIDENCE
          ? { status: 409, body: { status: 0, code: 'GATEWAY_NOT_CONFIGURED', message } }
          : undefined,
    });
    const dialog = await openDialog();
    expect((await within(dialog).findByText(/The evidence could not be prepared\./)).textContent).toContain(message);
    expect(within(dialog).getByRole('button', { name: 'Save draft' }).hasAttribute('disabled')).toBe(true);
    expect(within(dialog).getByRole('button', { name: 'Submit' }).hasAttribute('disabled')).toBe(true);
  });
});
