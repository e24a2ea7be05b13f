import { clip, slug, url, type ProductIn } from './product-in.js';

/**
 * Product types inferred from Chorus/Icecat titles (the catalog has no category field). Only
 * the part before "for …" counts (a "cover for laptop" is a cover); accessory types are tried
 * before device types (a "laptop lock" is a lock), and the first matching entry wins.
 */
const TYPES: Array<[RegExp, string]> = [
  [/\b(toner|ink cartridge|ink|drum unit|ribbon)\b/i, 'Printer Supplies'],
  [/\b(cable lock|laptop lock|notebook lock|security lock|lock)\b/i, 'Security Locks'],
  [/\b(privacy filter|privacy screen|screen protector|anti-glare|screen filter)\b/i, 'Screen Protectors'],
  [/\b(docking station|port replicator|dock)\b/i, 'Docks & Port Replicators'],
  [/\b(mouse pad|mousepad|mouse mat)\b/i, 'Mouse Pads'],
  [/\b(case|bag|sleeve|backpack|briefcase|holster|pouch|cover)\b/i, 'Cases & Bags'],
  [/\b(stand|mount|holder|bracket)\b/i, 'Stands & Mounts'],
  [/\b(charger|power adapter|ac adapter|power supply|power bank)\b/i, 'Chargers & Power'],
  [/\b(battery|batteries)\b/i, 'Batteries'],
  [/\b(cable|adapter|converter|extension)\b/i, 'Cables & Adapters'],
  [/\b(smartwatch|smart watch|gps watch|activity tracker|fitness tracker|watch)\b/i, 'Watches & Trackers'],
  [/\b(notebook|laptop|chromebook|ultrabook)\b/i, 'Laptops'],
  [/\btablet\b/i, 'Tablets'],
  [/\b(smartphone|mobile phone|iphone)\b/i, 'Mobile Phones'],
  [/\b(tv|television)\b/i, 'TVs'],
  [/\b(monitor|display)\b/i, 'Monitors'],
  [/\b(printer|multifunctional|scanner)\b/i, 'Printers & Scanners'],
  [/\b(headset|headphones?|earphones?|earbuds)\b/i, 'Headphones & Headsets'],
  [/\bspeakers?\b/i, 'Speakers'],
  [/\bmouse\b/i, 'Mice'],
  [/\bkeyboard\b/i, 'Keyboards'],
  [/\b(camera|camcorder|webcam)\b/i, 'Cameras'],
  [/\b(memory card|flash drive|usb flash|sd card|microsd|usb stick)\b/i, 'Memory Cards & USB Drives'],
  [/\b(hard drive|hdd|ssd|solid state|external drive)\b/i, 'Drives'],
  [/\b(ups|uninterruptible)\b/i, 'Power Protection'],
  [/\b(router|switch|access point|network)\b/i, 'Networking'],
  [/\bprojector\b/i, 'Projectors'],
  [/\b(motherboard|processor|graphics card|memory module)\b/i, 'Computer Components'],
  [/\b(pc|desktop|workstation|all-in-one)\b/i, 'Desktops'],
];

/** The part of a title before "for …" / "compatible with …". */
function ownPart(title: string): string {
  const m = /\s(for|compatible with|fits)\s/i.exec(title);
  return m && m.index > 2 ? title.slice(0, m.index) : title;
}

const MAX_ATTRIBUTES = 40;

/** Maps one Chorus/Icecat record (prices in US cents) to ProductIn. */
export function mapChorus(raw: Record<string, unknown>): ProductIn {
  const title = clip(raw.title, 5000) ?? clip(raw.name, 5000) ?? String(raw.id);
  const attributes: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(raw)) {
    if (Object.keys(attributes).length >= MAX_ATTRIBUTES) break;
    const m = /^attr_(t|n)_(.+)$/.exec(k);
    if (!m || v === null || v === '') continue;
    if (m[1] === 'n' && typeof v === 'number') attributes[m[2].slice(0, 200)] = v;
    else if (m[1] === 't' && typeof v === 'string') attributes[m[2].slice(0, 200)] = v.slice(0, 1000);
  }
  const own = ownPart(title);
  const type = TYPES.find(([re]) => re.test(own))?.[1];
  const ean = Array.isArray(raw.ean) ? raw.ean.find((e) => typeof e === 'string' && e.length <= 50) : undefined;
  const released = typeof raw.date_released === 'string' && !Number.isNaN(Date.parse(raw.date_released)) ? new Date(raw.date_released).toISOString() : null;
  return {
    id: String(raw.id).slice(0, 128),
    name: { en: title },
    ...(clip(raw.short_description, 20_000) ? { description: { en: clip(raw.short_description, 20_000)! } } : {}),
    brand: clip(raw.supplier, 200),
    model: clip(raw.name, 200),
    gtin: (ean as string | undefined) ?? null,
    image_url: url(raw.img_500x500) ?? url(raw.img_high),
    price: (Number(raw.price ?? 0) / 100).toFixed(2),
    currency: 'USD',
    categories: type ? [{ id: slug(type), path: [{ en: 'Electronics' }, { en: type }] }] : [],
    attributes,
    updated_at: released,
  };
}
