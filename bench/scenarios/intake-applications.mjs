// Applications as landing sites send them (issue 31): every one its own traveller, drawn by the demo data's own
// generator (names, e-mail, passport number, telephone, address, job and travel plan as the seeded orders have
// them), its own signature image (a different file for the document store each time), its own Stripe
// PaymentIntent and its own Idempotency-Key. Deterministic for a seed.
import { crc32, deflateSync } from 'node:zlib';
import path from 'node:path';
import { root, serverModule } from '../harness.mjs';

const DAY = 86_400_000;
/** The signature pad's canvas: a landing site's is about this size; greyscale, as the desk's own demo image. */
const WIDTH = 480;
const HEIGHT = 160;
/** Scribbles drawn before the load (each ~10 ms); each application then adds its own last stroke to one of them. */
const SCRIBBLES = 48;

/** A PRNG (mulberry32) for what the demo generator does not draw: scribbles, strokes, PaymentIntent ids. */
function prng(seed) {
  let state = seed >>> 0;
  return () => {
    let t = (state = (state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Ink along a run of points, 5 px wide and darker at its centre, onto a grey image (255 white). */
function ink(image, points) {
  for (const [px, py] of points) {
    for (let dy = -2; dy <= 2; dy += 1) {
      for (let dx = -2; dx <= 2; dx += 1) {
        const x = Math.round(px + dx);
        const y = Math.round(py + dy);
        if (x < 1 || y < 0 || x > WIDTH || y >= HEIGHT) continue;
        // Rows carry PNG's filter byte first, so pixel x of row y is at y * (WIDTH + 1) + 1 + x.
        const at = y * (WIDTH + 1) + x;
        image[at] = Math.min(image[at], Math.min(255, 25 + 70 * Math.hypot(dx, dy)));
      }
    }
  }
}

/** A signature-like scribble (looped letters that trail off) with its own loops, height, slant and pace. */
function scribble(random) {
  const image = Buffer.alloc((WIDTH + 1) * HEIGHT, 255);
  for (let y = 0; y < HEIGHT; y += 1) image[y * (WIDTH + 1)] = 0; // filter: none
  const loops = 4 + Math.floor(random() * 6);
  const height = 18 + random() * 20;
  const slant = (random() - 0.5) * 18;
  const points = [];
  for (let i = 0; i <= 4000; i += 1) {
    const t = (i / 4000) * loops * 2 * Math.PI;
    const progress = i / 4000;
    const x = 30 + ((WIDTH - 120) * t) / (loops * 2 * Math.PI) - 16 * Math.sin(t) + slant * Math.cos(t);
    const y =
      HEIGHT * 0.55 - (height + 10 * Math.sin(progress * 5)) * Math.cos(t) * (1 - 0.5 * progress) - 14 * progress;
    points.push([x, y]);
  }
  ink(image, points);
  return image;
}

const pngChunk = (type, data) => {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const frame = Buffer.alloc(8);
  frame.writeUInt32BE(data.length, 0);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([frame.subarray(0, 4), body, crc]);
};
const PNG_HEADER = (() => {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(WIDTH, 0);
  header.writeUInt32BE(HEIGHT, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), pngChunk('IHDR', header)]);
})();

/** One of the scribbles with a closing stroke of its own: no two applications send the same bytes. */
function signaturePng(scribbles, random) {
  const image = Buffer.from(scribbles[Math.floor(random() * scribbles.length)]);
  const from = [WIDTH - 95 + random() * 20, HEIGHT * (0.6 + random() * 0.2)];
  const to = [from[0] + 40 + random() * 30, from[1] - 20 + random() * 30];
  const stroke = [];
  for (let i = 0; i <= 300; i += 1) {
    const t = i / 300;
    stroke.push([from[0] + (to[0] - from[0]) * t, from[1] + (to[1] - from[1]) * t + 3 * Math.sin(t * 7)]);
  }
  ink(image, stroke);
  return Buffer.concat([PNG_HEADER, pngChunk('IDAT', deflateSync(image)), pngChunk('IEND', Buffer.alloc(0))]);
}

const utcDay = (ms) => new Date(Math.floor(ms / DAY) * DAY).toISOString().slice(0, 10);
/** A calendar date moved by `days`, as [year, month, day]. */
function shifted(year, month, day, days) {
  const d = new Date(Date.UTC(year, month - 1, day) + days * DAY);
  return [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()];
}

/**
 * The application an order row of the demo generator was filled in from, as if the customer sent it today: the
 * generator spreads orders over two years, so every date of the row (birth, passport, travel, processing date) moves
 * by the days between the row's creation and now, which keeps the traveller's age, passport and plan as drawn.
 * Every landing site's price is the loopback Stripe's 89.00 USD, so each payment is verified as a Success.
 */
function applicationOf(row, fields, now, paymentIntent, signature) {
  const created = Date.parse(row.created_at);
  const days = Math.round((Math.floor(now / DAY) * DAY - Math.floor(created / DAY) * DAY) / DAY);
  const years = Math.floor(days / 365.25);
  const thisYear = new Date(now).getUTCFullYear();
  const body = {};
  for (const field of fields) {
    const value = row[field];
    if (value !== undefined && value !== null) body[field] = value;
  }
  [body.birth_year, body.birth_month, body.birth_date] = shifted(row.birth_year, row.birth_month, row.birth_date, days);
  [body.passport_issue_year, body.passport_issue_month, body.passport_issue_date] = shifted(
    row.passport_issue_year,
    row.passport_issue_month,
    row.passport_issue_date,
    days,
  );
  [body.passport_exp_year, body.passport_exp_month, body.passport_exp_date] = shifted(
    row.passport_exp_year,
    row.passport_exp_month,
    row.passport_exp_date,
    days,
  );
  // A newborn drawn on its order's day is born today once moved, and the form wants a birth in the past (the hour's
  // soak met one in 123,348 applications): born the day before, with the passport issued no earlier.
  const today = Math.floor(now / DAY) * DAY;
  const day = (year, month, date) => Date.UTC(year, month - 1, date);
  const born = day(body.birth_year, body.birth_month, body.birth_date);
  if (born >= today) {
    [body.birth_year, body.birth_month, body.birth_date] = shifted(
      body.birth_year,
      body.birth_month,
      body.birth_date,
      (today - born) / DAY - 1,
    );
    const bornNow = day(body.birth_year, body.birth_month, body.birth_date);
    if (day(body.passport_issue_year, body.passport_issue_month, body.passport_issue_date) < bornNow) {
      [body.passport_issue_year, body.passport_issue_month, body.passport_issue_date] = shifted(
        body.birth_year,
        body.birth_month,
        body.birth_date,
        0,
      );
    }
  }
  // The form asks everyone's occupation; the generator leaves it out for a child under five.
  body.occupation ??= 'Unemployed';
  // The demo data may name the Schengen area; the form offers countries only.
  if (body.country_that_refused_you_a_visa_or_permit === 'Schengen area') {
    body.country_that_refused_you_a_visa_or_permit = 'France';
  }
  if (body.working_since !== undefined) body.working_since = Math.min(thisYear, body.working_since + years);
  if (body.uscis_exp_year !== undefined) body.uscis_exp_year = Math.min(thisYear + 15, body.uscis_exp_year + years);
  if (body.processing_date) body.processing_date = utcDay(Date.parse(body.processing_date) + days * DAY);
  if (body.travel_to_canada_year) {
    const expires = Date.UTC(body.passport_exp_year, body.passport_exp_month - 1, body.passport_exp_date);
    const travel = Math.min(Date.parse(body.travel_to_canada_year) + days * DAY, expires - DAY);
    body.travel_to_canada_year = utcDay(Math.max(travel, now + DAY));
  }
  body.payment = {
    status: 'Success',
    amount_cents: 8900,
    currency: 'USD',
    gateway: 'Stripe',
    transaction_id: paymentIntent,
    merchant_name: row.merchant_name ?? 'CANADA ETA',
  };
  body.consent = {
    agreed_at: new Date(now - 60_000 - (created % 240_000)).toISOString(),
    ip_address: row.ip_address,
    customer_browser: row.customer_browser,
    customer_timezone: row.customer_timezone,
    legal_version: 1,
  };
  body.signature = `data:image/png;base64,${signature.toString('base64')}`;
  return body;
}

/**
 * A source of applications for the default landing site, each checked by the server's own validation as it is made
 * (a refused one stops the bench with its reasons, so the load never times a 400; the signature's PNG, made the same
 * way for all, is judged by its bytes once). `prepare(n)` makes n ahead, so making them is not timed with the load;
 * `next()` hands out the next one (made at once when none is waiting) as the JSON text sent, with its Idempotency-Key
 * and e-mail, which the checks after the load compare with the stored orders.
 */
export async function intakeApplications({ seed = 31, run = Date.now().toString(36) } = {}) {
  const { DemoOrderGenerator } = await serverModule('demo/generate.js');
  const { checkApplication, readSignature } = await serverModule('modules/intake/application.js');
  const { IntakeOrderBody } = await import(path.join(root, 'packages/contracts/dist/index.js'));
  const fields = Object.keys(IntakeOrderBody.properties).filter(
    (f) => !['landing_site', 'payment', 'consent', 'signature'].includes(f),
  );
  const random = prng(seed);
  const scribbles = Array.from({ length: SCRIBBLES }, () => scribble(random));
  const generator = new DemoOrderGenerator({
    seed,
    firstNumber: 1,
    total: 1_000_000,
    reference: Date.now(),
    staff: [{ id: 1, name: 'Bench', type: 'Team' }],
    sites: [{ key: 'default', displayName: 'Canada eTA Online' }],
    gateways: [{ id: 1, name: 'Stripe' }],
    signatureKey: 'unused',
  });
  const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const intentId = () => {
    let id = 'pi_3';
    for (let i = 0; i < 24; i += 1) id += ALPHABET[Math.floor(random() * ALPHABET.length)];
    return id;
  };
  let made = 0;
  const make = () => {
    const now = Date.now();
    const [row] = generator.batch(1).orders;
    const body = applicationOf(row, fields, now, intentId(), signaturePng(scribbles, random));
    const checked = checkApplication(body, new Date(now));
    if (!checked.ok) throw new Error(`a generated application is refused: ${JSON.stringify(checked.issues)}`);
    made += 1;
    return { text: JSON.stringify(body), key: `bench-${run}-${made}`, email: body.email, signature: body.signature };
  };
  const first = make();
  const judged = await readSignature(first.signature);
  if ('field' in judged) throw new Error(`the generated signature is refused: ${judged.message}`);
  const waiting = [first];
  return {
    prepare(count) {
      while (waiting.length < count) waiting.push(make());
    },
    next: () => waiting.shift() ?? make(),
    get made() {
      return made;
    },
  };
}
