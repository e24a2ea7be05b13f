import t from 'tap';
import { prorate, quoteChange } from '../../shared/billing/index.js';

const day = 86400_000;
const at = (iso: string) => new Date(iso);

t.test('prorate: exact, half up to the minor unit', async (t) => {
  t.equal(prorate(9900, 15 * day, 30 * day), 4950);
  t.equal(prorate(1, 1, 2), 1, '0.5 rounds up');
  t.equal(prorate(1, 1, 3), 0, '0.33 rounds down');
  t.equal(prorate(2900, 10 * day, 30 * day), 967, '966.67 -> 967');
  t.equal(prorate(299_000, 100 * day, 365 * day), 81918, '81917.8 -> 81918');
  t.equal(prorate(9900, 0, 30 * day), 0, 'nothing left');
  t.equal(prorate(9900, 40 * day, 30 * day), 9900, 'never more than the period');
});

// November 2026 has 30 days: the period 11-01 .. 12-01 is 30 days.
const nov = { periodStart: at('2026-11-01T00:00:00Z'), periodEnd: at('2026-12-01T00:00:00Z') };
const rows: Array<{
  name: string;
  from: Parameters<typeof quoteChange>[0];
  to: { plan: string; interval: 'month' | 'year' };
  now: string;
  addons?: Array<{ code: string; quantity: number; priceMinor: number }>;
  want: { kind: string; charge: number; credit: number; effective: string; periodEnd: string };
}> = [
  {
    name: 'upgrade starter -> growth mid-period (15 of 30 days left)',
    from: { plan: 'starter', interval: 'month', ...nov },
    to: { plan: 'growth', interval: 'month' },
    now: '2026-11-16T00:00:00Z',
    want: { kind: 'upgrade', charge: 4950 - 1450, credit: 0, effective: '2026-11-16T00:00:00.000Z', periodEnd: '2026-12-01T00:00:00.000Z' },
  },
  {
    name: 'upgrade growth -> scale with 10 of 30 days left',
    from: { plan: 'growth', interval: 'month', ...nov },
    to: { plan: 'scale', interval: 'month' },
    now: '2026-11-21T00:00:00Z',
    // 29900 * 10/30 = 9966.67 -> 9967; 9900 * 10/30 = 3300
    want: { kind: 'upgrade', charge: 9967 - 3300, credit: 0, effective: '2026-11-21T00:00:00.000Z', periodEnd: '2026-12-01T00:00:00.000Z' },
  },
  {
    name: 'downgrade growth -> starter: at period end, nothing now',
    from: { plan: 'growth', interval: 'month', ...nov },
    to: { plan: 'starter', interval: 'month' },
    now: '2026-11-16T00:00:00Z',
    want: { kind: 'downgrade', charge: 0, credit: 0, effective: '2026-12-01T00:00:00.000Z', periodEnd: '2026-12-01T00:00:00.000Z' },
  },
  {
    name: 'yearly -> monthly of the same plan: at period end',
    from: { plan: 'growth', interval: 'year', periodStart: at('2026-01-01T00:00:00Z'), periodEnd: at('2027-01-01T00:00:00Z') },
    to: { plan: 'growth', interval: 'month' },
    now: '2026-07-02T00:00:00Z',
    want: { kind: 'downgrade', charge: 0, credit: 0, effective: '2027-01-01T00:00:00.000Z', periodEnd: '2027-01-01T00:00:00.000Z' },
  },
  {
    name: 'monthly -> yearly of the same plan: new yearly period now, unused month credited',
    from: { plan: 'starter', interval: 'month', ...nov },
    to: { plan: 'starter', interval: 'year' },
    now: '2026-11-16T00:00:00Z',
    want: { kind: 'upgrade', charge: 29000 - 1450, credit: 0, effective: '2026-11-16T00:00:00.000Z', periodEnd: '2027-11-16T00:00:00.000Z' },
  },
  {
    name: 'upgrade with two add-on bundles (not prorated)',
    from: { plan: 'growth', interval: 'month', ...nov },
    to: { plan: 'scale', interval: 'month' },
    now: '2026-11-16T00:00:00Z',
    addons: [{ code: 'assistant_conversations_500', quantity: 2, priceMinor: 1900 }],
    want: { kind: 'upgrade', charge: 14950 - 4950 + 3800, credit: 0, effective: '2026-11-16T00:00:00.000Z', periodEnd: '2026-12-01T00:00:00.000Z' },
  },
  {
    name: 'add-ons only on the same plan',
    from: { plan: 'growth', interval: 'month', ...nov },
    to: { plan: 'growth', interval: 'month' },
    now: '2026-11-16T00:00:00Z',
    addons: [{ code: 'assistant_conversations_5000', quantity: 1, priceMinor: 14900 }],
    want: { kind: 'addons_only', charge: 14900, credit: 0, effective: '2026-11-16T00:00:00.000Z', periodEnd: '2026-12-01T00:00:00.000Z' },
  },
  {
    name: 'growth/year -> scale/month: a new month now; the unused year beyond its price is credit',
    from: { plan: 'growth', interval: 'year', periodStart: at('2026-01-01T00:00:00Z'), periodEnd: at('2027-01-01T00:00:00Z') },
    to: { plan: 'scale', interval: 'month' },
    now: '2026-07-02T00:00:00Z',
    // 99000 * 183/365 = 49635.6 -> 49636, less 29900 for the month
    want: { kind: 'upgrade', charge: 0, credit: 49636 - 29900, effective: '2026-07-02T00:00:00.000Z', periodEnd: '2026-08-02T00:00:00.000Z' },
  },
  {
    name: 'trialing: an upgrade charges only its add-on bundles, the trial keeps its end',
    from: { plan: 'starter', interval: 'year', periodStart: at('2026-11-01T00:00:00Z'), periodEnd: at('2026-11-15T00:00:00Z'), trialing: true },
    to: { plan: 'growth', interval: 'year' },
    now: '2026-11-08T00:00:00Z',
    addons: [{ code: 'assistant_conversations_500', quantity: 1, priceMinor: 1900 }],
    want: { kind: 'trial', charge: 1900, credit: 0, effective: '2026-11-08T00:00:00.000Z', periodEnd: '2026-11-15T00:00:00.000Z' },
  },
  {
    name: 'trialing: a downgrade or a shorter interval takes effect now too, nothing charged',
    from: { plan: 'growth', interval: 'year', periodStart: at('2026-11-01T00:00:00Z'), periodEnd: at('2026-11-15T00:00:00Z'), trialing: true },
    to: { plan: 'starter', interval: 'month' },
    now: '2026-11-08T00:00:00Z',
    want: { kind: 'trial', charge: 0, credit: 0, effective: '2026-11-08T00:00:00.000Z', periodEnd: '2026-11-15T00:00:00.000Z' },
  },
];

for (const r of rows) {
  t.test(r.name, async (t) => {
    const q = quoteChange(r.from, r.to, at(r.now), r.addons);
    t.equal(q.kind, r.want.kind);
    t.equal(q.chargeNowMinor, r.want.charge);
    t.ok(Number.isInteger(q.chargeNowMinor));
    t.equal(q.creditMinor, r.want.credit);
    t.equal(q.effectiveAt.toISOString(), r.want.effective);
    t.equal(q.periodEnd.toISOString(), r.want.periodEnd);
  });
}

t.test('a plan not in the catalog is a 409 plan_unknown, not a plain error', async (t) => {
  t.throws(() => quoteChange({ plan: 'platinum', interval: 'month', ...nov }, { plan: 'growth', interval: 'month' }, at('2026-11-16T00:00:00Z')), {
    code: 'plan_unknown',
    status: 409,
  });
});
