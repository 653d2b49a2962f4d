// Delivery and evidence on the order detail page (issue 8): Upload Document, Email History with Resend, View
// Email Content and the defence packs, walked in the whole console as a person would.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { MailContent, OrderDetails, ProcessStatus } from '@eta/contracts';
import { ok, stubApi, type RecordedCall, type StubHandler } from '../../../test/api-stub';
import { DETAIL_ORDER_ID, detailReply, isDetailCall, isDisputesCall, orderDetails } from '../../../test/order-details';
import { FOLDER_COUNTS, isFolderCountCall } from '../../../test/orders';
import { preloadRoutes, renderRoutes } from '../../../test/render';
import { signIn } from '../../../test/session';
import { encodeOrderId } from '../../../lib/order-id';

beforeAll(preloadRoutes);

/** The whole console renders in each test: 1-5 s in jsdom, more on a busy machine. */
const WHOLE_CONSOLE = { timeout: 20_000 };

type MailEntry = OrderDetails['mailHistory'][number];
type UploadedDocument = OrderDetails['uploadDoc'][number];

function renderOrder(order: OrderDetails | null, handler: StubHandler = () => undefined) {
  const token = signIn('Asha Rao', 'Team');
  const api = stubApi((call) => {
    if (isFolderCountCall(call)) return ok(FOLDER_COUNTS);
    const reply = handler(call);
    if (reply) return reply;
    if (isDisputesCall(call)) return ok([]);
    if (order && isDetailCall(call)) return detailReply(order);
    return undefined;
  });
  renderRoutes(`/admin/view-order/${encodeOrderId(DETAIL_ORDER_ID)}`);
  return {
    api,
    token,
    detailCalls: () => api.calls.filter((call) => isDetailCall(call)),
    countCalls: () => api.calls.filter(isFolderCountCall).length,
  };
}

const pageLoaded = () => screen.findByRole('heading', { level: 1, name: DETAIL_ORDER_ID });
const section = (name: string) => screen.getByRole('region', { name });
const uploadForm = () => within(section('Upload Document'));

const pdfFile = () => new File(['%PDF-1.7\n%test\n'], 'approval.pdf', { type: 'application/pdf' });

const mail = (overrides: Partial<MailEntry> = {}): MailEntry => ({
  id: 11,
  order_id: DETAIL_ORDER_ID,
  kind: 'approval',
  to: 'maria@example.com',
  subject: `Your Canada eTA is approved - order ${DETAIL_ORDER_ID}`,
  provider: 'AWS',
  state: 'sent',
  attempts: 1,
  create_ts: '2026-11-20T10:00:00.000Z',
  sent_at: '2026-11-20T10:00:02.000Z',
  provider_message_id: 'ses-message-1',
  ...overrides,
});

const uploaded = (overrides: Partial<UploadedDocument> = {}): UploadedDocument => ({
  id: 5,
  file1: 'approval.pdf',
  content_type: 'application/pdf',
  size_bytes: 245_760,
  create_ts: '2026-11-20T09:59:58.000Z',
  uploaded_by: 'Asha Rao',
  mail_service_provider: 'Sendgrid',
  ...overrides,
});

async function chooseProvider(name: 'AWS' | 'Sendgrid') {
  await userEvent.click(uploadForm().getByRole('combobox', { name: 'Mail service provider' }));
  await userEvent.click(await screen.findByRole('option', { name }));
}

const formFields = (call: RecordedCall) => {
  const form = call.form!;
  const file = form.get('uploadVisaDoc') as File;
  return {
    orderId: form.get('orderId'),
    email: form.get('email'),
    mailServiceProvider: form.get('mailServiceProvider'),
    file: file.name,
    names: [...form.keys()],
  };
};

describe('Upload Document', WHOLE_CONSOLE, () => {
  it("sends the four multipart fields with the token, shows the server's message, reloads the order Completed and the counts", async () => {
    let done = false;
    const message = `Document uploaded and order ${DETAIL_ORDER_ID} completed. The approval mail to new.address@example.com is on its way.`;
    const { api, token, detailCalls, countCalls } = renderOrder(null, (call) => {
      if (isDetailCall(call)) {
        return detailReply(
          orderDetails(
            done
              ? {
                  process_status: 'Completed',
                  version: 4,
                  uploadDoc: [uploaded()],
                  mailHistory: [mail({ state: 'queued', sent_at: undefined })],
                }
              : { version: 3 },
          ),
        );
      }
      if (call.path === '/api/admin/upload-visa-document') {
        done = true;
        return ok({ orderId: DETAIL_ORDER_ID, version: 4, process_status: 'Completed' }, message);
      }
      return undefined;
    });
    await pageLoaded();
    await waitFor(() => expect(countCalls()).toBe(1));
    // The Email box starts with the order's address; the order id cannot be edited.
    const email = uploadForm().getByRole('textbox', { name: 'Email' });
    expect((email as HTMLInputElement).value).toBe('maria@example.com');
    expect(uploadForm().getByRole('textbox', { name: 'Order ID' }).hasAttribute('readonly')).toBe(true);
    const input = uploadForm().getByLabelText('Approved document');
    expect(input.getAttribute('accept')).toBe(
      'application/pdf,image/jpeg,image/png,image/gif,image/webp,image/bmp,image/tiff,image/heic,image/avif',
    );

    await userEvent.clear(email);
    await userEvent.type(email, 'new.address@example.com');
    await chooseProvider('Sendgrid');
    await userEvent.upload(input, pdfFile());
    expect(uploadForm().getByTestId('chosen-file').textContent).toBe('approval.pdf (1 KB)');
    await userEvent.click(uploadForm().getByRole('button', { name: 'Upload' }));
    // Another address than the order's: asked first (issue 35), nothing sent until the answer.
    const question = await screen.findByRole('dialog');
    expect(question.textContent).toContain('The approval will go to new.address@example.com, not to maria@example.com');
    expect(api.callsTo('POST', '/api/admin/upload-visa-document')).toHaveLength(0);
    await userEvent.click(within(question).getByRole('button', { name: 'Yes' }));

    expect(await screen.findByText(message)).toBeTruthy();
    const calls = api.callsTo('POST', '/api/admin/upload-visa-document');
    expect(calls).toHaveLength(1);
    expect(formFields(calls[0]!)).toEqual({
      orderId: DETAIL_ORDER_ID,
      email: 'new.address@example.com',
      mailServiceProvider: 'Sendgrid',
      file: 'approval.pdf',
      names: ['orderId', 'email', 'confirmEmailChange', 'uploadVisaDoc', 'mailServiceProvider'],
    });
    // The browser writes the multipart Content-Type itself; the staff token rides as on every call.
    expect(calls[0]!.headers['Content-Type']).toBeUndefined();
    expect(calls[0]!.headers.Authorization).toBe(token);

    await waitFor(() => expect(detailCalls()).toHaveLength(2));
    await waitFor(() => expect(countCalls()).toBe(2));
    expect(await screen.findByText('Status: Completed')).toBeTruthy();
    // The new document is listed; the file choice is cleared for the next one.
    const row = within(
      within(section('Upload Document')).getByRole('table', { name: 'Uploaded documents' }),
    ).getAllByRole('row')[1]!;
    expect(
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['approval.pdf', 'application/pdf', '240 KB', '', '', 'Sendgrid', 'Asha Rao', '20/11/2026 09:59:58 UTC']);
    expect(uploadForm().getByTestId('chosen-file').textContent).toBe('No file chosen');
    // The mail it queued is in Email History.
    expect(within(section('Email History')).getByText('queued')).toBeTruthy();
  });

  it("refuses a missing file with 'File is required' and an empty Email with 'Please enter your email', sending nothing", async () => {
    const { api } = renderOrder(orderDetails());
    await pageLoaded();
    await userEvent.clear(uploadForm().getByRole('textbox', { name: 'Email' }));
    await userEvent.click(uploadForm().getByRole('button', { name: 'Upload' }));

    expect(await uploadForm().findByText('File is required')).toBeTruthy();
    expect(uploadForm().getByText('Please enter your email')).toBeTruthy();
    expect(api.callsTo('POST', '/api/admin/upload-visa-document')).toEqual([]);

    await userEvent.type(uploadForm().getByRole('textbox', { name: 'Email' }), 'maria@example.com');
    await userEvent.click(uploadForm().getByRole('button', { name: 'Upload' }));
    expect(await uploadForm().findByText('File is required')).toBeTruthy();
    expect(api.callsTo('POST', '/api/admin/upload-visa-document')).toEqual([]);
  });

  it.each([
    [413, 'PAYLOAD_TOO_LARGE', 'The file is larger than 10 MB. Nothing was stored; please upload a smaller file.'],
    [
      415,
      'UNSUPPORTED_FILE',
      'This file is a ZIP file (application/zip). Please upload the approved document as a PDF or an image.',
    ],
    [
      400,
      'PROVIDER_NOT_CONFIGURED',
      'AWS is not configured on this server, so the mail cannot be sent through it. Please choose Sendgrid.',
    ],
  ])(
    "shows a %i refusal as an error toast in the server's words and keeps the file chosen",
    async (status, code, message) => {
      const { api } = renderOrder(orderDetails(), (call) =>
        call.path === '/api/admin/upload-visa-document' ? { status, body: { status: 0, code, message } } : undefined,
      );
      await pageLoaded();
      await userEvent.upload(uploadForm().getByLabelText('Approved document'), pdfFile());
      await userEvent.click(uploadForm().getByRole('button', { name: 'Upload' }));

      const toast = await screen.findByText(message);
      expect(toast.closest('.Toastify__toast')?.className).toContain('Toastify__toast--error');
      expect(api.callsTo('POST', '/api/admin/upload-visa-document')).toHaveLength(1);
      expect(screen.getByText('Status: Pending')).toBeTruthy();
      expect(uploadForm().getByTestId('chosen-file').textContent).toBe('approval.pdf (1 KB)');
    },
  );

  it('shows the upload in progress: the buttons wait until the answer arrives', async () => {
    let answer: (() => void) | undefined;
    const replied = new Promise<void>((resolve) => (answer = resolve));
    renderOrder(orderDetails(), (call) => {
      if (call.path !== '/api/admin/upload-visa-document') return undefined;
      return ok({ orderId: DETAIL_ORDER_ID }, 'Document uploaded.');
    });
    // Hold the answer back: the stub's reply is delayed until the test lets it go.
    const stubbed = globalThis.fetch;
    vi.stubGlobal('fetch', async (...args: Parameters<typeof fetch>) => {
      if (String(args[0]).includes('upload-visa-document')) await replied;
      return stubbed(...args);
    });
    await pageLoaded();
    await userEvent.upload(uploadForm().getByLabelText('Approved document'), pdfFile());
    await userEvent.click(uploadForm().getByRole('button', { name: 'Upload' }));

    expect(await uploadForm().findByText('Uploading approval.pdf…')).toBeTruthy();
    expect(uploadForm().getByRole('progressbar', { name: 'Uploading the document' })).toBeTruthy();
    expect(uploadForm().getByRole('button', { name: 'Uploading…' }).hasAttribute('disabled')).toBe(true);
    expect(uploadForm().getByRole('button', { name: 'Choose file' }).hasAttribute('disabled')).toBe(true);
    answer!();
    expect(await screen.findByText('Document uploaded.')).toBeTruthy();
    await waitFor(() => expect(uploadForm().queryByRole('progressbar')).toBeNull());
  });

  it("shows whom another traveller's approval names beside this order's, and sends it only with a reason (issue 35)", async () => {
    const mismatch = {
      status: 422,
      body: {
        status: 0,
        code: 'DOCUMENT_MISMATCH',
        message:
          'This document names WHITFIELD / K48213571; this order is GARCIA / P55120934. Nothing was stored or sent.',
        data: {
          reading: {
            method: 'text',
            readable: true,
            matched: false,
            passportFound: false,
            surnameFound: false,
            named: { surname: 'WHITFIELD', givenNames: 'KATE', passportNumber: 'K48213571' },
            facts: { applicationNumber: 'V309999999', approvedOn: null, expiresOn: null },
            sentAnyway: null,
          },
          order: { surname: 'GARCIA', givenNames: 'Maria', passportNumber: 'P55120934' },
        },
      },
    };
    const { api } = renderOrder(orderDetails(), (call) => {
      if (call.path !== '/api/admin/upload-visa-document') return undefined;
      return call.form?.get('sendAnywayReason') ? ok({ orderId: DETAIL_ORDER_ID }, 'Document uploaded.') : mismatch;
    });
    await pageLoaded();
    await userEvent.upload(uploadForm().getByLabelText('Approved document'), pdfFile());
    await userEvent.click(uploadForm().getByRole('button', { name: 'Upload' }));

    const refusal = await uploadForm().findByRole('alert', { name: 'The document was not sent' });
    expect(refusal.textContent).toContain('This looks like another traveller’s approval');
    const rows = within(within(refusal).getByRole('table', { name: 'Who the document names' })).getAllByRole('row');
    expect(rows.map((row) => row.textContent)).toEqual([
      'SurnamePassport number',
      'This documentWHITFIELDK48213571',
      'This orderGARCIAP55120934',
    ]);
    // The page said it; no error toast on top of it.
    expect(document.querySelectorAll('.Toastify__toast--error')).toHaveLength(0);
    const sendAnyway = within(refusal).getByRole('button', { name: 'Send it anyway' });
    expect(sendAnyway.hasAttribute('disabled')).toBe(true);
    await userEvent.type(
      within(refusal).getByLabelText('Reason to send it anyway'),
      'Passport renewed; IRCC approved the new one.',
    );
    await userEvent.click(sendAnyway);
    expect(await screen.findByText('Document uploaded.')).toBeTruthy();
    const calls = api.callsTo('POST', '/api/admin/upload-visa-document');
    expect(calls).toHaveLength(2);
    expect(calls[1]!.form?.get('sendAnywayReason')).toBe('Passport renewed; IRCC approved the new one.');
    await waitFor(() => expect(uploadForm().queryByRole('alert', { name: 'The document was not sent' })).toBeNull());
  });
});

describe('Email History and Resend', WHOLE_CONSOLE, () => {
  it('is not shown while the order has no mail', async () => {
    renderOrder(orderDetails());
    await pageLoaded();
    expect(screen.queryByRole('region', { name: 'Email History' })).toBeNull();
  });

  it('lists every mail with its state, attempts, provider message id, times and last error', async () => {
    renderOrder(
      orderDetails({
        uploadDoc: [uploaded()],
        mailHistory: [
          mail({
            id: 13,
            kind: 'resend',
            provider: 'Sendgrid',
            state: 'queued',
            attempts: 2,
            sent_at: undefined,
            provider_message_id: undefined,
            last_error: 'Sendgrid 503: Service unavailable',
            next_attempt_at: '2026-11-20T11:02:00.000Z',
            create_ts: '2026-11-20T11:00:00.000Z',
          }),
          mail({
            id: 12,
            provider: 'Sendgrid',
            state: 'failed',
            attempts: 5,
            sent_at: undefined,
            provider_message_id: undefined,
            last_error: 'Sendgrid 400: The from address does not match a verified Sender Identity',
          }),
          mail(),
          mail({
            id: 10,
            kind: 'confirmation',
            subject: `We have received your Canada eTA application - order ${DETAIL_ORDER_ID}`,
            create_ts: '2026-11-19T09:30:00.000Z',
            sent_at: '2026-11-19T09:30:01.000Z',
            provider_message_id: 'ses-message-0',
          }),
        ],
      }),
    );
    await pageLoaded();
    const rows = within(section('Email History'))
      .getAllByRole('row')
      .slice(1)
      .map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      );
    const subject = `Your Canada eTA is approved - order ${DETAIL_ORDER_ID}`;
    expect(rows).toEqual([
      [
        'View',
        'Resend',
        'maria@example.com',
        'queuednext try 20/11/2026 11:02:00 UTC',
        '',
        'Sendgrid 503: Service unavailable',
        '',
        'Sendgrid',
        '2',
        '20/11/2026 11:00:00 UTC',
        subject,
      ],
      [
        'View',
        'Approval',
        'maria@example.com',
        'failed',
        '',
        'Sendgrid 400: The from address does not match a verified Sender Identity',
        '',
        'Sendgrid',
        '5',
        '20/11/2026 10:00:00 UTC',
        subject,
      ],
      [
        'View',
        'Approval',
        'maria@example.com',
        'sent',
        '20/11/2026 10:00:02 UTC',
        '',
        'ses-message-1',
        'AWS',
        '1',
        '20/11/2026 10:00:00 UTC',
        subject,
      ],
      [
        'View',
        'Order confirmation',
        'maria@example.com',
        'sent',
        '19/11/2026 09:30:01 UTC',
        '',
        'ses-message-0',
        'AWS',
        '1',
        '19/11/2026 09:30:00 UTC',
        `We have received your Canada eTA application - order ${DETAIL_ORDER_ID}`,
      ],
    ]);
    expect(
      within(section('Email History')).getByRole('button', {
        name: 'View the order confirmation mail to maria@example.com queued 19/11/2026 09:30:00 UTC',
      }),
    ).toBeTruthy();
  });

  it('reloads the order every few seconds while a mail is about to go out, until it shows sent', async () => {
    const queued = mail({
      state: 'queued',
      attempts: 0,
      sent_at: undefined,
      provider_message_id: undefined,
      create_ts: new Date().toISOString(),
    });
    let reloads = 0;
    const { detailCalls } = renderOrder(null, (call) => {
      if (!isDetailCall(call)) return undefined;
      reloads += 1;
      const current =
        reloads === 1 ? queued : { ...queued, state: 'sent', attempts: 1, sent_at: new Date().toISOString() };
      return detailReply(orderDetails({ uploadDoc: [uploaded()], mailHistory: [current] }));
    });
    await pageLoaded();
    expect(within(section('Email History')).getByText('queued')).toBeTruthy();
    expect(await within(section('Email History')).findByText('sent', {}, { timeout: 10_000 })).toBeTruthy();
    // Nothing is queued any more: the page stops asking.
    const settled = detailCalls().length;
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    expect(detailCalls()).toHaveLength(settled);
  });

  it("resends to the address typed in the Email box through the chosen provider, shows the server's message and reloads", async () => {
    const message = 'The approval mail will be sent again to typed.again@example.com.';
    const { api, detailCalls } = renderOrder(
      orderDetails({ uploadDoc: [uploaded()], mailHistory: [mail()] }),
      (call) =>
        call.path === '/api/admin/resend-mail'
          ? ok(
              { mailId: 14, orderId: DETAIL_ORDER_ID, to: 'typed.again@example.com', provider: 'AWS', state: 'queued' },
              message,
            )
          : undefined,
    );
    await pageLoaded();
    // The provider starts as the one the latest document's mail went with.
    expect(uploadForm().getByRole('combobox', { name: 'Mail service provider' }).textContent).toBe('Sendgrid');
    const email = uploadForm().getByRole('textbox', { name: 'Email' });
    await userEvent.clear(email);
    await userEvent.type(email, '  typed.again@example.com ');
    await chooseProvider('AWS');
    const history = within(section('Email History'));
    expect(history.getByText(/^The approval mail again, to typed\.again@example\.com through AWS\./)).toBeTruthy();
    await userEvent.click(history.getByRole('button', { name: 'Resend' }));

    expect(await screen.findByText(message)).toBeTruthy();
    expect(api.callsTo('POST', '/api/admin/resend-mail').map((call) => call.body)).toEqual([
      { orderId: DETAIL_ORDER_ID, email: 'typed.again@example.com', mailServiceProvider: 'AWS' },
    ]);
    await waitFor(() => expect(detailCalls()).toHaveLength(2));
  });

  it('asks for an address before resending, and needs the approved document', async () => {
    const { api } = renderOrder(orderDetails({ uploadDoc: [uploaded()], mailHistory: [mail()] }));
    await pageLoaded();
    await userEvent.clear(uploadForm().getByRole('textbox', { name: 'Email' }));
    await userEvent.click(within(section('Email History')).getByRole('button', { name: 'Resend' }));
    expect(await uploadForm().findByText('Please enter your email')).toBeTruthy();
    expect(api.callsTo('POST', '/api/admin/resend-mail')).toEqual([]);
  });

  it('offers neither Resend nor an upload once the order was erased, and says why', async () => {
    renderOrder(orderDetails({ uploadDoc: [uploaded()], mailHistory: [mail()], erasedAt: '2026-11-24T03:00:00.000Z' }));
    await pageLoaded();
    const note = "Nothing can be sent for this order: its customer's personal data was erased.";
    const history = within(section('Email History'));
    expect(history.getByRole('button', { name: 'Resend' }).hasAttribute('disabled')).toBe(true);
    expect(history.getByText(note)).toBeTruthy();
    expect(uploadForm().getByText(note)).toBeTruthy();
    expect(uploadForm().queryByRole('button', { name: /upload/i })).toBeNull();
  });

  it('offers no Resend before a document is uploaded (an invoice mail alone)', async () => {
    renderOrder(orderDetails({ mailHistory: [mail({ kind: 'invoice' })] }));
    await pageLoaded();
    const history = within(section('Email History'));
    expect(history.getByRole('button', { name: 'Resend' }).hasAttribute('disabled')).toBe(true);
    expect(history.getByText('Resend needs the approved document: upload it first.')).toBeTruthy();
  });
});

const content = (overrides: Partial<MailContent> = {}): MailContent => ({
  orderId: DETAIL_ORDER_ID,
  mailId: 11,
  kind: 'approval',
  state: 'sent',
  from: 'Canada eTA Online <noreply@canada-eta-online.example>',
  to: 'maria@example.com',
  provider: 'AWS',
  subject: `Your Canada eTA is approved - order ${DETAIL_ORDER_ID}`,
  html: `<p>Dear Maria Lopez,</p><p><a href="https://www.canada-eta-online.example/track-order/${DETAIL_ORDER_ID}">Download your eTA</a></p><script>parent.alert(1)</script>`,
  text: `Dear Maria Lopez,\nOrder ID: ${DETAIL_ORDER_ID}\nhttps://www.canada-eta-online.example/track-order/${DETAIL_ORDER_ID}`,
  attachments: [],
  attempts: 1,
  provider_message_id: 'ses-message-1',
  create_ts: '2026-11-20T10:00:00.000Z',
  sent_at: '2026-11-20T10:00:02.000Z',
  whatsappLink: 'https://wa.me/447700900123',
  ...overrides,
});

const isContentCall = (call: RecordedCall) => call.path === `/api/admin/email-content/${DETAIL_ORDER_ID}`;

describe('View Email Content', WHOLE_CONSOLE, () => {
  it('shows exactly what was sent: subject, sender, the HTML in a sandboxed frame, the text, and the WhatsApp link', async () => {
    const { api } = renderOrder(orderDetails({ process_status: 'Completed' }), (call) =>
      isContentCall(call) ? ok(content()) : undefined,
    );
    await pageLoaded();
    await userEvent.click(within(section('Actions')).getByRole('button', { name: 'View Email Content' }));
    const dialog = await screen.findByRole('dialog', { name: 'Email Content' });
    expect(await within(dialog).findByText(`Your Canada eTA is approved - order ${DETAIL_ORDER_ID}`)).toBeTruthy();
    expect(within(dialog).getByText('Canada eTA Online <noreply@canada-eta-online.example>')).toBeTruthy();
    expect(within(dialog).getByText('Sent through AWS at 20/11/2026 10:00:02 UTC.')).toBeTruthy();
    expect(api.calls.filter(isContentCall).map((call) => call.query.toString())).toEqual(['']);

    const frame = dialog.querySelector('iframe')!;
    expect(frame.getAttribute('title')).toBe(`Email content: Your Canada eTA is approved - order ${DETAIL_ORDER_ID}`);
    // Nothing allowed: no script, no same origin, no navigation.
    expect(frame.getAttribute('sandbox')).toBe('');
    expect(frame.getAttribute('srcdoc')).toBe(content().html);

    await userEvent.click(within(dialog).getByRole('tab', { name: 'Text' }));
    expect(within(dialog).getByRole('tabpanel').textContent).toBe(content().text);

    const whatsapp = within(dialog).getByRole('link', { name: 'Send Whatsapp Message' });
    expect(whatsapp.getAttribute('href')).toBe('https://wa.me/447700900123');
    expect(whatsapp.getAttribute('target')).toBe('_blank');
    expect(whatsapp.getAttribute('rel')).toBe('noopener noreferrer');

    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('says a preview was never sent, and disables WhatsApp without a dialling code', async () => {
    renderOrder(orderDetails(), (call) =>
      isContentCall(call)
        ? ok(content({ state: 'preview', mailId: undefined, provider: undefined, whatsappLink: undefined }))
        : undefined,
    );
    await pageLoaded();
    await userEvent.click(within(section('Actions')).getByRole('button', { name: 'View Email Content' }));
    const dialog = await screen.findByRole('dialog', { name: 'Email Content' });
    expect(
      await within(dialog).findByText('Preview: the approval mail this order would get now. Nothing has been sent.'),
    ).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Send Whatsapp Message' }).hasAttribute('disabled')).toBe(true);
    expect(within(dialog).queryByRole('link', { name: 'Send Whatsapp Message' })).toBeNull();
    expect(
      within(dialog).getByText("No WhatsApp link: the customer's telephone number has no known dialling code."),
    ).toBeTruthy();
  });

  it('opens a mail of Email History by its id', async () => {
    const { api } = renderOrder(
      orderDetails({ uploadDoc: [uploaded()], mailHistory: [mail({ id: 14, kind: 'resend' }), mail()] }),
      (call) => (isContentCall(call) ? ok(content({ mailId: 14, kind: 'resend' })) : undefined),
    );
    await pageLoaded();
    const views = within(section('Email History')).getAllByRole('button', { name: /^View the / });
    await userEvent.click(views[0]!);
    await screen.findByRole('dialog', { name: 'Email Content' });
    await waitFor(() =>
      expect(api.calls.filter(isContentCall).map((call) => call.query.get('mailId'))).toEqual(['14']),
    );
  });
});

describe('Defence packs', WHOLE_CONSOLE, () => {
  /** A stand-in for the tab window.open gives: where it was sent, and whether it was closed. */
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
    const open = vi.fn(() => tab as unknown as Window);
    vi.stubGlobal('open', open);
    // jsdom has no object URLs.
    const createObjectURL = vi.fn((_blob: Blob) => 'blob:http://localhost/defence-pack');
    class UrlWithObjects extends URL {
      static override createObjectURL = createObjectURL;
      static override revokeObjectURL = vi.fn();
    }
    vi.stubGlobal('URL', UrlWithObjects);
    return { tab, open, createObjectURL };
  }

  it.each<[ProcessStatus, boolean]>([
    ['Completed', true],
    ['Customer Called', true],
    ['ChargeBack', true],
    ['Pending', false],
    ['Refund Completed', false],
  ])('for a %s order offers the packs: %s', async (status, offered) => {
    renderOrder(orderDetails({ process_status: status }));
    await pageLoaded();
    const actions = within(section('Actions'));
    expect(actions.queryByRole('button', { name: 'Defence Pack 1' }) !== null).toBe(offered);
    expect(actions.queryByRole('button', { name: 'Defence Pack 2' }) !== null).toBe(offered);
  });

  it.each([1, 2] as const)(
    'Defence Pack %i posts its type with the token and opens the PDF in the tab opened on the click',
    async (type) => {
      const { tab, open, createObjectURL } = stubNewTab();
      const { api, token } = renderOrder(orderDetails({ process_status: 'Completed' }), (call) =>
        call.path === '/api/admin/get-defence-pack-pdf'
          ? { body: null, raw: { content: '%PDF-1.7\n%pack\n', contentType: 'application/pdf' } }
          : undefined,
      );
      await pageLoaded();
      await userEvent.click(within(section('Actions')).getByRole('button', { name: `Defence Pack ${type}` }));

      expect(open).toHaveBeenCalledWith('', '_blank');
      expect(tab.opener).toBeNull();
      await waitFor(() => expect(tab.location.href).toBe('blob:http://localhost/defence-pack'));
      const calls = api.callsTo('POST', '/api/admin/get-defence-pack-pdf');
      expect(calls.map((call) => call.body)).toEqual([{ orderId: DETAIL_ORDER_ID, defencePackType: type }]);
      expect(calls[0]!.headers.Authorization).toBe(token);
      const pdf = createObjectURL.mock.calls[0]![0];
      expect(pdf.type).toBe('application/pdf');
      expect(await pdf.text()).toBe('%PDF-1.7\n%pack\n');
      expect(tab.closed).toBe(false);
    },
  );

  it("closes the tab again and shows the server's message when the pack is refused", async () => {
    const { tab } = stubNewTab();
    const message = `Order ${DETAIL_ORDER_ID} is Pending: defence packs are for Completed or Customer Called orders.`;
    renderOrder(orderDetails({ process_status: 'Completed' }), (call) =>
      call.path === '/api/admin/get-defence-pack-pdf'
        ? { status: 409, body: { status: 0, code: 'WRONG_STATUS', message } }
        : undefined,
    );
    await pageLoaded();
    await userEvent.click(within(section('Actions')).getByRole('button', { name: 'Defence Pack 1' }));
    const toast = await screen.findByText(message);
    expect(toast.closest('.Toastify__toast')?.className).toContain('Toastify__toast--error');
    expect(tab.closed).toBe(true);
    expect(tab.location.href).toBe('about:blank');
  });
});

describe('a mail that was not sent (issue 22)', WHOLE_CONSOLE, () => {
  const toastOf = (text: string) => screen.findByText(text).then((node) => node.closest('.Toastify__toast')!);
  const notSent = { state: 'not_sent', reason: 'no_provider' } as const;

  it('after Upload: the toast follows the answer’s delivery and is a warning, never a success', async () => {
    const message = `Document uploaded and order ${DETAIL_ORDER_ID} completed. The approval mail was not sent: no mail provider is configured on this server.`;
    renderOrder(orderDetails({ version: 3 }), (call) =>
      call.path === '/api/admin/upload-visa-document'
        ? ok({ orderId: DETAIL_ORDER_ID, version: 4, process_status: 'Completed', delivery: notSent }, message)
        : undefined,
    );
    await pageLoaded();
    await userEvent.upload(uploadForm().getByLabelText('Approved document'), pdfFile());
    await userEvent.click(uploadForm().getByRole('button', { name: 'Upload' }));
    const toast = await toastOf(message);
    expect(toast.className).toContain('Toastify__toast--warning');
    expect(toast.className).not.toContain('Toastify__toast--success');
  });

  it('after Resend: a warning too; a queued resend is a success', async () => {
    let sent = false;
    const notSentText =
      'The mail was not sent: no mail provider is configured on this server. It is kept in Email History.';
    const queuedText = 'The approval mail will be sent again to maria@example.com.';
    renderOrder(orderDetails({ uploadDoc: [uploaded()], mailHistory: [mail()] }), (call) => {
      if (call.path !== '/api/admin/resend-mail') return undefined;
      const reply = { mailId: 14, orderId: DETAIL_ORDER_ID, to: 'maria@example.com', provider: 'AWS' };
      if (!sent) {
        sent = true;
        return ok({ ...reply, state: 'failed', delivery: notSent }, notSentText);
      }
      return ok({ ...reply, state: 'queued', delivery: { state: 'queued' } }, queuedText);
    });
    await pageLoaded();
    const history = within(section('Email History'));
    await userEvent.click(history.getByRole('button', { name: 'Resend' }));
    expect((await toastOf(notSentText)).className).toContain('Toastify__toast--warning');
    await userEvent.click(history.getByRole('button', { name: 'Resend' }));
    expect((await toastOf(queuedText)).className).toContain('Toastify__toast--success');
  });
});
