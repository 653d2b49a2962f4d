import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { OrderDetails, ProcessStatus, StaffType } from '@eta/contracts';
import { REMARK_MAX_LENGTH } from '@eta/contracts/domain';
import { encodeOrderId } from '../../../lib/order-id';
import { ok, stubApi, type StubHandler } from '../../../test/api-stub';
import {
  DETAIL_ORDER_ID,
  detailReply,
  isDetailCall,
  isDisputesCall,
  notFoundReply,
  orderDetails,
  remarkEntry,
} from '../../../test/order-details';
import { FOLDER_COUNTS, isFolderCountCall, isListCall, listPage, orderRow } from '../../../test/orders';
import { preloadRoutes, renderRoutes } from '../../../test/render';
import { signIn } from '../../../test/session';
import { ORDER_FIELDS, fieldsShown } from '../order-detail-fields';

beforeAll(async () => {
  // Far from UTC and from New York, so a time rendered in the wrong zone shows another hour.
  vi.stubEnv('TZ', 'Pacific/Auckland');
  await preloadRoutes();
});
afterAll(() => {
  vi.unstubAllEnvs();
});

/**
 * Each test renders the whole console (layout, folder counts, the page) and walks it as a person would; in jsdom
 * that takes 1-5 s, more while the machine is busy, so these tests get more than vitest's default 5 s.
 */
const WHOLE_CONSOLE = { timeout: 20_000 };

const detailPath = (orderId = DETAIL_ORDER_ID) => `/admin/view-order/${encodeOrderId(orderId)}`;

/** The whole console at an order's page, signed in as `role`; the server answers with `order` (or `handler`). */
function renderOrder(
  order: OrderDetails | null,
  { role = 'Team' as StaffType, handler = (() => undefined) as StubHandler, path = detailPath() } = {},
) {
  signIn('Asha Rao', role);
  const api = stubApi((call) => {
    if (isFolderCountCall(call)) return ok(FOLDER_COUNTS);
    const reply = handler(call);
    if (reply) return reply;
    if (isDisputesCall(call)) return ok([]);
    if (order && isDetailCall(call, String(order.order_id))) return detailReply(order);
    return undefined;
  });
  const router = renderRoutes(path);
  const detailCalls = () =>
    api.calls.filter((call) => call.method === 'GET' && call.path.startsWith('/api/admin/get-orders-details/'));
  const countCalls = () => api.calls.filter(isFolderCountCall).length;
  return { api, router, detailCalls, countCalls };
}

const pageLoaded = () => screen.findByRole('heading', { level: 1, name: DETAIL_ORDER_ID });
const section = (name: string) => screen.getByRole('region', { name });
const sectionTitles = () => screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent);
/** The value next to a label in a section's rows, or null when the row is not there. */
function rowValue(sectionName: string, label: string): string | null {
  const term = within(section(sectionName))
    .queryAllByRole('term')
    .find((dt) => dt.textContent === label);
  return term ? (term.nextElementSibling?.textContent ?? '') : null;
}
const moveGroup = () => screen.queryByRole('group', { name: 'Move to' });
const moveLabels = () =>
  within(moveGroup() ?? document.createElement('div'))
    .queryAllByRole('button')
    .map((button) => button.textContent);

async function confirmYes() {
  await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Yes' }));
}

describe('Order detail: what the page shows', WHOLE_CONSOLE, () => {
  it("shows the sections in the spec's order, with only the rows that have a value, read as a person would", async () => {
    renderOrder(orderDetails());
    await pageLoaded();

    expect(sectionTitles()).toEqual([
      'Upload Document',
      'Order Details',
      'Travel Details',
      'Passport details of applicant',
      'Personal Details',
      'Employment information',
      'Contact information',
      'Residential address',
      'Background Questions',
      'Download History',
      'Comment History',
      'Add Comment Below',
      'Actions',
      'Activity',
    ]);
    // The representative's surname is absent: no row for it. A "no" answer reads No.
    expect(rowValue('Order Details', 'Representative surname')).toBeNull();
    expect(rowValue('Order Details', 'Applying on behalf of someone else')).toBe('No');
    expect(rowValue('Order Details', 'Amount')).toBe('89.00 USD');
    expect(rowValue('Order Details', 'Date & Time')).toBe('19/11/2026 09:30:00 UTC');
    expect(rowValue('Passport details of applicant', 'Surname(s)')).toBe('Lopez');
    expect(rowValue('Passport details of applicant', 'Date of birth')).toBe('04/07/1980');
    expect(rowValue('Passport details of applicant', 'Date of expiry')).toBe('30/01/2031');
    expect(rowValue('Passport details of applicant', 'Date of issue')).toBeNull();
    expect(rowValue('Contact information', 'Telephone')).toBe('+44 7700900123');
    expect(rowValue('Employment information', 'Job title')).toBeNull();
    expect(rowValue('Background Questions', 'Process status')).toBe('Pending');
    expect(rowValue('Background Questions', 'Assign date')).toBe('20/11/2026 15:04:05 UTC');
    expect(rowValue('Background Questions', 'Processing type')).toBe('Standard');
    expect(rowValue('Background Questions', 'IP address')).toBe('203.0.113.5');
    // 15:00 UTC on 19 November is 10:00 in New York (EST).
    expect(rowValue('Background Questions', 'US date')).toBe('11/19/2026');
    expect(rowValue('Background Questions', 'US EST time')).toBe('10:00:00 EST');
    expect(rowValue('Background Questions', 'Legal texts agreed (version)')).toBe('1');
    // The signature's storage key is internal: the row shows the image, and the server has none for this order
    // (a 404 the row words itself, without an error toast).
    expect(await within(section('Background Questions')).findByText('No signature image on file.')).toBeTruthy();
    expect(rowValue('Background Questions', 'Digital signature')).toBe('No signature image on file.');
    expect(screen.queryByText(/signatures\/ETA-200020076\.png/)).toBeNull();
    expect(document.querySelector('.Toastify__toast--error')).toBeNull();
    expect(rowValue('Background Questions', 'Ever diagnosed with tuberculosis')).toBeNull();

    expect(screen.getByTestId('order-holder').textContent).toBe('Held by Asha Rao since 20/11/2026 15:04:05 UTC');
    expect(screen.getByText('Status: Pending')).toBeTruthy();
    expect(screen.getByText('Processing: Standard')).toBeTruthy();
    expect(document.title).toBe('ETA-200020076 | Canada eTA — Electronic Travel Authorization');
    expect(screen.getByRole('navigation', { name: 'Main menu' })).toBeTruthy();
  });

  it('shows how long the order has been in its status, when its urgent traveller flies, and that it is late', async () => {
    const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();
    renderOrder(
      orderDetails({
        timing: {
          travel_at: new Date(Date.now() + 30 * 3_600_000).toISOString(),
          urgent: true,
          status_since: hoursAgo(5),
          overdue_since: '2026-11-21T09:30:00.000Z',
        },
      }),
    );
    await pageLoaded();
    const summary = section('Order summary');
    expect(within(summary).getByTestId('time-in-status').textContent).toBe('5 h in Pending');
    expect(within(summary).getByText('Travels in 1 day')).toBeTruthy();
    expect(within(summary).getByText('Late').closest('[title]')?.getAttribute('title')).toBe(
      'Past its Standard target since 21/11/2026 09:30:00 UTC',
    );
  });

  it('shows neither chip for an order that is neither urgent nor late, nor a time for a closed one', async () => {
    renderOrder(orderDetails({ process_status: 'Completed' }));
    await pageLoaded();
    const summary = section('Order summary');
    expect(within(summary).queryByTestId('time-in-status')).toBeNull();
    expect(within(summary).queryByText(/^Travels/)).toBeNull();
    expect(within(summary).queryByText('Late')).toBeNull();
  });

  it('has a labelled place on the page for every order field', () => {
    const shown = new Set(fieldsShown());
    const missing = Object.keys(ORDER_FIELDS).filter((field) => !shown.has(field as keyof typeof ORDER_FIELDS));
    expect(missing).toEqual([]);
  });

  it('shows Email History first when the order has mails, with kind, recipient, provider, state and times', async () => {
    renderOrder(
      orderDetails({
        mailHistory: [
          {
            id: 4,
            order_id: DETAIL_ORDER_ID,
            kind: 'approval',
            to: 'maria@example.com',
            subject: 'Your Canada eTA is approved',
            provider: 'Sendgrid',
            state: 'failed',
            attempts: 3,
            last_error: 'Mailbox unavailable',
            create_ts: '2026-11-20T10:00:00.000Z',
          },
        ],
      }),
    );
    await pageLoaded();
    expect(sectionTitles()[0]).toBe('Email History');
    const row = within(section('Email History')).getAllByRole('row')[1]!;
    expect(
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual([
      'View',
      'Approval',
      'maria@example.com',
      'failed',
      '',
      'Mailbox unavailable',
      '',
      'Sendgrid',
      '3',
      '20/11/2026 10:00:00 UTC',
      'Your Canada eTA is approved',
    ]);
  });

  it('lists downloads with their US Eastern times and the timeline in time order', async () => {
    renderOrder(
      orderDetails({
        downloadHistory: [
          {
            id: 2,
            order_id: DETAIL_ORDER_ID,
            create_ts: '2026-07-01T16:00:00.000Z',
            ip: '198.51.100.2',
            browser: 'Firefox',
          },
        ],
        activity: [
          { at: '2026-11-20T15:04:05.000Z', actor: 'Asha Rao', action: 'Assigned', from: 'New', to: 'Pending' },
          { at: '2026-11-20T16:00:00.000Z', actor: 'Ben Ode', action: 'Comment added' },
        ],
      }),
    );
    await pageLoaded();
    const download = within(section('Download History')).getAllByRole('row')[1]!;
    // Summer: New York is on EDT (UTC-4).
    expect(within(download).getByText('01/07/2026 12:00:00 EDT')).toBeTruthy();
    expect(within(download).getByText('198.51.100.2')).toBeTruthy();
    const items = within(section('Activity'))
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(items).toEqual([
      '20/11/2026 15:04:05 UTCAsha Rao Assigned (New → Pending)',
      '20/11/2026 16:00:00 UTCBen Ode Comment added',
    ]);
  });

  it.each([
    ['Admin', true],
    ['Manager', false],
    ['Team', false],
  ] as const)(
    'says in words what the landing site and the customer did; %s has the raw records a click away: %s',
    async (role, hasRecords) => {
      const { router } = renderOrder(
        orderDetails({
          activity: [
            { at: '2026-11-18T09:00:00.000Z', action: 'Order received from Canada eTA Online' },
            {
              at: '2026-11-20T15:04:05.000Z',
              actor: 'Asha Rao',
              action: 'Approved document uploaded',
              to: 'Completed',
            },
            { at: '2026-11-21T08:00:00.000Z', action: 'Customer downloaded the approved eTA' },
          ],
        }),
        { role },
      );
      await pageLoaded();
      expect(
        within(section('Activity'))
          .getAllByRole('listitem')
          .map((item) => item.textContent),
      ).toEqual([
        '18/11/2026 09:00:00 UTCOrder received from Canada eTA Online',
        '20/11/2026 15:04:05 UTCAsha Rao Approved document uploaded (→ Completed)',
        '21/11/2026 08:00:00 UTCCustomer downloaded the approved eTA',
      ]);
      const records = within(section('Activity')).queryByRole('link', { name: 'Audit records of this order' });
      expect(records !== null).toBe(hasRecords);
      if (records) {
        await userEvent.click(records);
        expect(router.state.location.pathname).toBe('/admin/activity');
        expect(router.state.location.search).toBe(`?orderId=${DETAIL_ORDER_ID}`);
      }
    },
  );
});

describe('Order detail: the digital signature', WHOLE_CONSOLE, () => {
  const signaturePath = `/api/admin/order-signature/${DETAIL_ORDER_ID}`;

  it("shows the customer's signature image, fetched with the staff token, and frees it when the page closes", async () => {
    // jsdom has no object URLs.
    const createObjectURL = vi.fn((_blob: Blob) => 'blob:http://localhost/signature');
    const revokeObjectURL = vi.fn();
    class UrlWithObjects extends URL {
      static override createObjectURL = createObjectURL;
      static override revokeObjectURL = revokeObjectURL;
    }
    vi.stubGlobal('URL', UrlWithObjects);
    const { api, router } = renderOrder(orderDetails(), {
      handler: (call) =>
        call.path === signaturePath
          ? { body: null, raw: { content: 'PNG bytes', contentType: 'image/png' } }
          : undefined,
    });
    await pageLoaded();

    const image = await within(section('Background Questions')).findByRole('img', { name: "Customer's signature" });
    expect(image.getAttribute('src')).toBe('blob:http://localhost/signature');
    expect(await createObjectURL.mock.calls[0]![0].text()).toBe('PNG bytes');
    const calls = api.callsTo('GET', signaturePath);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.headers.Authorization).toBe(JSON.parse(window.localStorage.getItem('user')!).accessToken);
    expect(screen.queryByText(/signatures\/ETA-200020076\.png/)).toBeNull();
    expect(revokeObjectURL).not.toHaveBeenCalled();

    await act(() => router.navigate('/admin'));
    expect(revokeObjectURL).toHaveBeenCalledWith('blob:http://localhost/signature');
  });

  it("says when the image could not be loaded, with the server's message as an error toast", async () => {
    renderOrder(orderDetails(), {
      handler: (call) =>
        call.path === signaturePath
          ? { status: 500, body: { status: 0, message: 'The document store is unavailable.' } }
          : undefined,
    });
    await pageLoaded();
    expect(
      await within(section('Background Questions')).findByText('The signature image could not be loaded.'),
    ).toBeTruthy();
    const toast = await screen.findByText('The document store is unavailable.');
    expect(toast.closest('.Toastify__toast')?.className).toContain('Toastify__toast--error');
  });

  it('asks for no image when the order has no signature', async () => {
    const { api } = renderOrder(orderDetails({ customer_sign: undefined }));
    await pageLoaded();
    expect(rowValue('Background Questions', 'Digital signature')).toBeNull();
    expect(api.callsTo('GET', signaturePath)).toEqual([]);
  });
});

describe('Order detail: Move-to buttons', WHOLE_CONSOLE, () => {
  it('hides the button of the status the order already has', async () => {
    renderOrder(orderDetails({ process_status: 'AwaitingGovt' }), { role: 'Manager' });
    await pageLoaded();
    expect(moveLabels()).toEqual([
      'Move to Awaiting Response',
      'Completed Refunds',
      'Completed Orders',
      'Delete',
      'Contact Customer',
      'Customer Called',
      'ChargeBack',
    ]);
  });

  it.each<[StaffType, boolean]>([
    ['Team', false],
    ['Telecaller', false],
    ['Night Staff', false],
    ['Manager', true],
    ['Admin', true],
  ])('offers Delete to %s: %s', async (role, offered) => {
    renderOrder(orderDetails(), { role });
    await pageLoaded();
    expect(moveLabels().includes('Delete')).toBe(offered);
    expect(moveLabels()).toContain('Awaiting Govt');
  });

  it.each<[StaffType, string[]]>([
    ['Admin', ['Restore to New']],
    ['Manager', []],
    ['Team', []],
  ])('offers only Restore to New on a Deleted order, and only to an Admin (%s)', async (role, labels) => {
    renderOrder(orderDetails({ process_status: 'Deleted' }), { role });
    await pageLoaded();
    expect(moveLabels()).toEqual(labels);
    if (labels.length === 0)
      expect(screen.getByText('This order cannot be moved from its current status.')).toBeTruthy();
  });

  it('offers no move for a Refund Completed order', async () => {
    renderOrder(orderDetails({ process_status: 'Refund Completed' }), { role: 'Admin' });
    await pageLoaded();
    expect(moveGroup()).toBeNull();
  });

  it('moves after confirmation with the version shown, then reloads the order and the counts', async () => {
    let moved = false;
    const { api, detailCalls, countCalls } = renderOrder(null, {
      handler: (call) => {
        if (isDetailCall(call)) {
          return detailReply(orderDetails(moved ? { process_status: 'AwaitingGovt', version: 4 } : { version: 3 }));
        }
        if (call.path === '/api/admin/move-order-status') {
          moved = true;
          return ok({ orderId: DETAIL_ORDER_ID, version: 4 }, 'Order moved to Awaiting Govt.');
        }
        return undefined;
      },
    });
    await pageLoaded();
    await waitFor(() => expect(countCalls()).toBe(1));

    await userEvent.click(within(moveGroup()!).getByRole('button', { name: 'Awaiting Govt' }));
    expect(
      within(await screen.findByRole('dialog')).getByText('Are you sure want to move this order to Awaiting Govt?'),
    ).toBeTruthy();
    await confirmYes();

    expect(await screen.findByText('Order moved to Awaiting Govt.')).toBeTruthy();
    expect(api.callsTo('PUT', '/api/admin/move-order-status').map((call) => call.body)).toEqual([
      { orderId: DETAIL_ORDER_ID, updatingStatus: 'AwaitingGovt', version: 3 },
    ]);
    await waitFor(() => expect(detailCalls()).toHaveLength(2));
    await waitFor(() => expect(countCalls()).toBe(2));
    expect(await screen.findByText('Status: Awaiting Govt')).toBeTruthy();
    expect(moveLabels()).not.toContain('Awaiting Govt');
  });

  it('warns before Completed when the order has no approved document (issue 22)', async () => {
    const { api } = renderOrder(orderDetails({ process_status: 'Pending', uploadDoc: [] }));
    await pageLoaded();
    await userEvent.click(within(moveGroup()!).getByRole('button', { name: 'Completed Orders' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain(
      'This order has no approved document yet: its customer will be told it is approved, but there is nothing to download until a document is uploaded. Are you sure want to move this order to Completed?',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'No' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo('PUT', '/api/admin/move-order-status')).toEqual([]);
  });

  it('asks only the usual question before Completed when the order has its document', async () => {
    renderOrder(
      orderDetails({
        process_status: 'Customer Called',
        uploadDoc: [
          {
            id: 5,
            file1: 'approval.pdf',
            content_type: 'application/pdf',
            size_bytes: 1024,
            create_ts: '2026-11-20T09:59:58.000Z',
            uploaded_by: 'Asha Rao',
            mail_service_provider: 'AWS',
          },
        ],
      }),
    );
    await pageLoaded();
    await userEvent.click(within(moveGroup()!).getByRole('button', { name: 'Completed Orders' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Are you sure want to move this order to Completed?')).toBeTruthy();
  });

  it('asks the delete question before Delete', async () => {
    const { api } = renderOrder(orderDetails(), { role: 'Manager' });
    await pageLoaded();
    await userEvent.click(within(moveGroup()!).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Are you sure you want to delete?')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'No' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo('PUT', '/api/admin/move-order-status')).toEqual([]);
  });

  it('says who changed the order and when when the copy was stale, reloads it and sends nothing more', async () => {
    let changed = false;
    const message =
      'Order ETA-200020076 was changed by Ben Ode at 20/11/2026 16:00:00 UTC after you opened it. Nothing was overwritten: check the latest details and try again.';
    const { api, detailCalls } = renderOrder(null, {
      handler: (call) => {
        if (isDetailCall(call)) {
          return detailReply(orderDetails(changed ? { process_status: 'Contact Customer', version: 4 } : {}));
        }
        if (call.path === '/api/admin/move-order-status') {
          changed = true;
          return {
            status: 409,
            body: {
              status: 0,
              code: 'STALE_VERSION',
              message,
              data: { changedBy: 'Ben Ode', changedAt: '2026-11-20T16:00:00.000Z' },
            },
          };
        }
        return undefined;
      },
    });
    await pageLoaded();

    await userEvent.click(within(moveGroup()!).getByRole('button', { name: 'Completed Orders' }));
    await confirmYes();

    expect(await screen.findByText(`${message} The order has been reloaded.`)).toBeTruthy();
    await waitFor(() => expect(detailCalls()).toHaveLength(2));
    expect(await screen.findByText('Status: Contact Customer')).toBeTruthy();
    expect(api.callsTo('PUT', '/api/admin/move-order-status')).toHaveLength(1);
    // Reported once, in the page's words: not also as the plain server message.
    expect(screen.queryByText(message)).toBeNull();
  });
});

describe('Order detail: evidence actions', WHOLE_CONSOLE, () => {
  it.each<[ProcessStatus, boolean]>([
    ['Completed', true],
    ['Customer Called', true],
    ['New', false],
    ['Pending', false],
    ['AwaitingGovt', false],
    ['Refunds', false],
    ['ChargeBack', true],
  ])('for a %s order shows Defence Packs and Enter Transaction Details: %s', async (status, shown) => {
    renderOrder(orderDetails({ process_status: status }));
    await pageLoaded();
    const actions = section('Actions');
    for (const name of ['Defence Pack 1', 'Defence Pack 2', 'Enter Transaction Details']) {
      expect(within(actions).queryByRole('button', { name }) !== null, name).toBe(shown);
    }
    expect(within(actions).getByRole('button', { name: 'View Email Content' }).hasAttribute('disabled')).toBe(false);
  });

  it("saves transaction details with the spec's messages for empty fields, then reloads", async () => {
    const { api, detailCalls } = renderOrder(null, {
      handler: (call) => {
        if (isDetailCall(call)) return detailReply(orderDetails({ process_status: 'Completed', version: 5 }));
        if (call.path === '/api/admin/save-transaction-details') {
          return ok({ orderId: DETAIL_ORDER_ID, version: 6 }, 'Transaction details saved.');
        }
        return undefined;
      },
    });
    await pageLoaded();
    expect(within(section('Actions')).getByRole('button', { name: 'Defence Pack 1' }).hasAttribute('disabled')).toBe(
      false,
    );

    await userEvent.click(screen.getByRole('button', { name: 'Enter Transaction Details' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enter Transaction Details' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Please enter your Transaction Id')).toBeTruthy();
    expect(within(dialog).getByText('Please enter your Merchant Name')).toBeTruthy();
    expect(api.callsTo('POST', '/api/admin/save-transaction-details')).toEqual([]);

    await userEvent.type(within(dialog).getByLabelText('Transaction Id'), 'ch_123');
    await userEvent.type(within(dialog).getByLabelText('Merchant Name'), 'Acme Ltd');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Transaction details saved.')).toBeTruthy();
    expect(api.callsTo('POST', '/api/admin/save-transaction-details').map((call) => call.body)).toEqual([
      { orderId: DETAIL_ORDER_ID, transactionId: 'ch_123', merchantName: 'Acme Ltd', version: 5 },
    ]);
    await waitFor(() => expect(detailCalls()).toHaveLength(2));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});

describe('Order detail: comments', WHOLE_CONSOLE, () => {
  const remarkCalls = (api: ReturnType<typeof renderOrder>['api']) =>
    api.callsTo('POST', '/api/admin/add-new-remark').map((call) => call.body);

  it("sends the remark with its flags as 'Y' or '', clears the box and reloads the order", async () => {
    let added = false;
    const { api, detailCalls } = renderOrder(null, {
      handler: (call) => {
        if (isDetailCall(call)) {
          return detailReply(orderDetails({ remark: added ? [remarkEntry({ remark: 'Called the customer' })] : [] }));
        }
        if (call.path === '/api/admin/add-new-remark') {
          added = true;
          return ok(remarkEntry(), 'Comment added.');
        }
        return undefined;
      },
    });
    await pageLoaded();
    const form = section('Add Comment Below');
    await userEvent.type(within(form).getByLabelText('Comment'), 'Called the customer');
    await userEvent.click(within(form).getByLabelText('WhatsApp'));
    await userEvent.click(within(form).getByLabelText('Voided'));
    await userEvent.click(within(form).getByRole('button', { name: 'Add Comment' }));

    expect(await screen.findByText('Comment added.')).toBeTruthy();
    expect(remarkCalls(api)).toEqual([
      {
        orderId: DETAIL_ORDER_ID,
        remark: 'Called the customer',
        remarkerName: 'Asha Rao',
        whatsapp: 'Y',
        telephone: '',
        statusRefund: '',
        voided: 'Y',
        chargeBack: '',
      },
    ]);
    await waitFor(() => expect((within(form).getByLabelText('Comment') as HTMLTextAreaElement).value).toBe(''));
    expect((within(form).getByLabelText('WhatsApp') as HTMLInputElement).checked).toBe(false);
    await waitFor(() => expect(detailCalls()).toHaveLength(2));
    expect(await within(section('Comment History')).findByText('Called the customer')).toBeTruthy();
  });

  it("refuses an empty or blank remark with 'Please enter your remark' and sends nothing", async () => {
    const { api } = renderOrder(orderDetails());
    await pageLoaded();
    const form = section('Add Comment Below');
    await userEvent.click(within(form).getByRole('button', { name: 'Add Comment' }));
    expect(await within(form).findByText('Please enter your remark')).toBeTruthy();
    await userEvent.type(within(form).getByLabelText('Comment'), '   ');
    await userEvent.click(within(form).getByRole('button', { name: 'Add Comment' }));
    expect(within(form).getByText('Please enter your remark')).toBeTruthy();
    expect(remarkCalls(api)).toEqual([]);
  });

  it(`refuses a remark longer than ${REMARK_MAX_LENGTH} characters with a clear message`, async () => {
    const { api } = renderOrder(orderDetails());
    await pageLoaded();
    const form = section('Add Comment Below');
    fireEvent.change(within(form).getByLabelText('Comment'), { target: { value: 'x'.repeat(REMARK_MAX_LENGTH + 1) } });
    await userEvent.click(within(form).getByRole('button', { name: 'Add Comment' }));
    expect(await within(form).findByText(`Remark must be at most ${REMARK_MAX_LENGTH} characters.`)).toBeTruthy();
    expect(remarkCalls(api)).toEqual([]);
  });

  it('lists comments newest first; each expands to its text and flags and collapses again', async () => {
    renderOrder(
      orderDetails({
        remark: [
          remarkEntry({
            id: 2,
            remark_name: 'Ben Ode',
            remark: 'Second note',
            us_time: '11:00:00 EST',
            whatsapp: true,
            chargeback: true,
          }),
          remarkEntry({ id: 1, remark_name: 'Asha Rao', remark: 'First note', us_time: '10:00:00 EST' }),
        ],
      }),
    );
    await pageLoaded();
    const history = section('Comment History');
    const rows = within(history).getAllByRole('button');
    expect(rows.map((row) => row.textContent)).toEqual([
      'Ben Ode · 11/20/2026 11:00:00 ESTSecond note',
      'Asha Rao · 11/20/2026 10:00:00 ESTFirst note',
    ]);
    const newest = rows[0]!;
    expect(newest.getAttribute('aria-expanded')).toBe('false');
    expect(within(history).queryByText('Flags: WhatsApp, Charge back')).toBeNull();

    await userEvent.click(newest);
    expect(newest.getAttribute('aria-expanded')).toBe('true');
    expect(within(history).getByText('Flags: WhatsApp, Charge back')).toBeTruthy();
    expect(within(history).getByText('Second note')).toBeTruthy();

    await userEvent.click(newest);
    expect(newest.getAttribute('aria-expanded')).toBe('false');
    await waitFor(() => expect(within(history).queryByText('Flags: WhatsApp, Charge back')).toBeNull());
  });

  it('shows a remark with markup as the text that was typed', async () => {
    renderOrder(orderDetails({ remark: [remarkEntry({ remark: '<b>x</b><img src=x onerror="alert(1)">' })] }));
    await pageLoaded();
    const history = section('Comment History');
    await userEvent.click(within(history).getByRole('button'));
    expect(within(history).getAllByText('<b>x</b><img src=x onerror="alert(1)">').length).toBeGreaterThan(0);
    expect(history.querySelector('b')).toBeNull();
    expect(history.querySelector('img')).toBeNull();
  });
});

describe('Order detail: the holder', WHOLE_CONSOLE, () => {
  it('assigns an unassigned order to me after the assign question, with the version shown', async () => {
    const { api } = renderOrder(
      orderDetails({ process_status: 'New', assign_to: undefined, assign_date: undefined, assign_to_id: undefined }),
      {
        handler: (call) =>
          call.path === '/api/admin/assign-order-status'
            ? ok({ updated: [DETAIL_ORDER_ID], skipped: [] }, 'Order has been assigned successfully')
            : undefined,
      },
    );
    await pageLoaded();
    expect(screen.getByTestId('order-holder').textContent).toBe('Not assigned');
    expect(screen.queryByRole('button', { name: 'Move to New orders' })).toBeNull();
    expect(screen.queryByLabelText('Assign to (name)')).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Assign to me' }));
    expect(within(await screen.findByRole('dialog')).getByText('Are you sure want to assigned orders.')).toBeTruthy();
    await confirmYes();

    expect(await screen.findByText('Order has been assigned successfully')).toBeTruthy();
    expect(api.callsTo('PUT', '/api/admin/assign-order-status').map((call) => call.body)).toEqual([
      { orderId: [DETAIL_ORDER_ID], assignto: 'Asha Rao', versions: { [DETAIL_ORDER_ID]: 3 } },
    ]);
  });

  it('moves my order back to New orders', async () => {
    const { api } = renderOrder(orderDetails(), {
      handler: (call) =>
        call.path === '/api/admin/assign-order-status'
          ? ok({ updated: [DETAIL_ORDER_ID], skipped: [] }, '1 order moved to New orders.')
          : undefined,
    });
    await pageLoaded();
    expect(screen.queryByRole('button', { name: 'Assign to me' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Move to New orders' }));
    expect(
      within(await screen.findByRole('dialog')).getByText('Are you sure want to move orders to new orders.'),
    ).toBeTruthy();
    await confirmYes();
    expect(await screen.findByText('1 order moved to New orders.')).toBeTruthy();
    expect(api.callsTo('PUT', '/api/admin/assign-order-status')[0]?.body).toEqual({
      orderId: [DETAIL_ORDER_ID],
      assignto: '',
      versions: { [DETAIL_ORDER_ID]: 3 },
    });
  });

  it("lets a Manager assign someone else's order to a named person", async () => {
    const held = orderDetails({ assign_to: 'Ben Ode' });
    const { api } = renderOrder(held, {
      role: 'Manager',
      handler: (call) =>
        call.path === '/api/admin/assign-order-status'
          ? ok({ updated: [DETAIL_ORDER_ID], skipped: [] }, 'Order has been assigned successfully')
          : undefined,
    });
    await pageLoaded();
    await userEvent.type(screen.getByLabelText('Assign to (name)'), 'Chen Wu');
    await userEvent.click(screen.getByRole('button', { name: 'Assign' }));
    expect(
      within(await screen.findByRole('dialog')).getByText('Are you sure want to assign this order to Chen Wu?'),
    ).toBeTruthy();
    await confirmYes();
    expect(await screen.findByText('Order has been assigned successfully')).toBeTruthy();
    expect(api.callsTo('PUT', '/api/admin/assign-order-status')[0]?.body).toMatchObject({ assignto: 'Chen Wu' });
  });

  it("offers a Team member nothing on someone else's order", async () => {
    renderOrder(orderDetails({ assign_to: 'Ben Ode' }), { role: 'Team' });
    await pageLoaded();
    expect(screen.getByTestId('order-holder').textContent).toContain('Held by Ben Ode');
    for (const name of ['Assign to me', 'Move to New orders', 'Assign']) {
      expect(screen.queryByRole('button', { name })).toBeNull();
    }
  });
});

describe('Order detail: not found', WHOLE_CONSOLE, () => {
  it('shows "Order not found" inside the console for an unknown order, with a way back', async () => {
    const { router } = renderOrder(null, {
      path: detailPath('ETA-999999999'),
      handler: (call) => (isDetailCall(call, 'ETA-999999999') ? notFoundReply('ETA-999999999') : undefined),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Order not found' })).toBeTruthy();
    expect(screen.getByText(/There is no order ETA-999999999/)).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Main menu' })).toBeTruthy();
    // Said on the page, not also as an error toast.
    expect(screen.queryByText('Order ETA-999999999 was not found.')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Back to Dashboard' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin'));
  });

  it.each(['not*base64', '%F0%9F%92%A9', 'AAEC'])(
    'shows "Order not found" for a malformed id (%s) without asking the server',
    async (segment) => {
      const { detailCalls } = renderOrder(null, { path: `/admin/view-order/${segment}` });
      expect(await screen.findByRole('heading', { level: 1, name: 'Order not found' })).toBeTruthy();
      expect(screen.getByText(/This link does not name an order/)).toBeTruthy();
      expect(detailCalls()).toEqual([]);
    },
  );
});

describe('Working a queue from the order detail', WHOLE_CONSOLE, () => {
  const pageTwo = ['ETA-100000011', 'ETA-100000012', 'ETA-100000013'];

  function renderQueueThenOrder() {
    signIn('Asha Rao', 'Team');
    const api = stubApi((call) => {
      if (isFolderCountCall(call)) return ok(FOLDER_COUNTS);
      if (call.path === '/api/admin/search-order') {
        return listPage(
          pageTwo.map((id) => orderRow({ order_id: id })),
          { total: 28, page: 2, limit: 25 },
        );
      }
      if (isListCall(call, 'newOrder')) return listPage([]);
      const detail = pageTwo.find((id) => isDetailCall(call, id));
      if (detail) return detailReply(orderDetails({ order_id: detail }));
      return undefined;
    });
    const router = renderRoutes('/admin/recent-order?page=2&limit=25&q=ETA-1000000');
    return { api, router };
  }

  it('View opens the order at its base64url address; Back returns to the list with its page, size and search', async () => {
    const { router } = renderQueueThenOrder();
    const row = (await screen.findByText('ETA-100000012')).closest('tr')!;
    const view = within(row).getByRole('link', { name: 'View' });
    expect(view.getAttribute('href')).toBe(`/admin/view-order/${btoa('ETA-100000012').replace(/=+$/, '')}`);

    await userEvent.click(view);
    expect(await screen.findByRole('heading', { level: 1, name: 'ETA-100000012' })).toBeTruthy();
    expect(router.state.location.pathname).toBe(detailPath('ETA-100000012'));

    await userEvent.click(screen.getByRole('button', { name: 'Back to New Orders' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'New Orders' })).toBeTruthy();
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(
      '/admin/recent-order?page=2&limit=25&q=ETA-1000000',
    );
  });

  it('Next order opens the next order of that list page without going back, and is hidden on the last one', async () => {
    const { router } = renderQueueThenOrder();
    const row = (await screen.findByText('ETA-100000012')).closest('tr')!;
    await userEvent.click(within(row).getByRole('link', { name: 'View' }));
    await screen.findByRole('heading', { level: 1, name: 'ETA-100000012' });

    await userEvent.click(screen.getByRole('button', { name: 'Next order' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'ETA-100000013' })).toBeTruthy();
    expect(router.state.location.pathname).toBe(detailPath('ETA-100000013'));
    expect(screen.queryByRole('button', { name: 'Next order' })).toBeNull();

    // Back still returns to the list, not to the previous order.
    await userEvent.click(screen.getByRole('button', { name: 'Back to New Orders' }));
    await waitFor(() =>
      expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(
        '/admin/recent-order?page=2&limit=25&q=ETA-1000000',
      ),
    );
  });

  it('keeps "Back to New Orders" and Next order after Refresh and after the browser reloads the page (issue 22)', async () => {
    const { api, router } = renderQueueThenOrder();
    const row = (await screen.findByText('ETA-100000012')).closest('tr')!;
    await userEvent.click(within(row).getByRole('link', { name: 'View' }));
    await screen.findByRole('heading', { level: 1, name: 'ETA-100000012' });
    const detailCalls = () => api.calls.filter((call) => isDetailCall(call, 'ETA-100000012')).length;
    const loads = detailCalls();

    await userEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(detailCalls()).toBe(loads + 1));
    await waitFor(() => expect(screen.queryByLabelText('Reloading the order')).toBeNull());
    expect(screen.getByRole('button', { name: 'Back to New Orders' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Next order' })).toBeTruthy();

    // A reload starts the console again at the same address, without the link's router state.
    const address = router.state.location.pathname;
    cleanup();
    const reloaded = renderRoutes(address);
    await screen.findByRole('heading', { level: 1, name: 'ETA-100000012' });
    expect(screen.queryByRole('button', { name: 'Back to Dashboard' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Next order' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Back to New Orders' }));
    await waitFor(() =>
      expect(`${reloaded.state.location.pathname}${reloaded.state.location.search}`).toBe(
        '/admin/recent-order?page=2&limit=25&q=ETA-1000000',
      ),
    );
  });

  it('opened by its address alone, the page offers Back to the dashboard and no Next order', async () => {
    renderOrder(orderDetails());
    await pageLoaded();
    expect(screen.getByRole('button', { name: 'Back to Dashboard' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Next order' })).toBeNull();
  });
});
