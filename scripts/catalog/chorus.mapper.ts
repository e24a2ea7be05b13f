import { LIMITS, text, urlOrNull, type AttributeValue, type CategoryRef, type ProductIn } from './product-in.js';

/** A raw Chorus/Icecat record (see /work/shared/data/chorus-icecat/README.md); `attr_t_*` / `attr_n_*` / `attr_b_*` fields vary. */
export type ChorusRaw = Record<string, unknown>;

/** Most attributes kept per product (in record order, which puts Icecat's headline specs first). */
export const MAX_CHORUS_ATTRIBUTES = 40;

/**
 * Product types inferred from Chorus titles (the catalog has no category field).
 * Each row is [category id, label, regex alternatives]; an alternative matches as whole words, plural "s"/"es" allowed.
 * Rule: the match that starts EARLIEST in the title wins (Icecat titles read "Brand Model <type> <specs...>", so the
 * type word comes first and later words like "... for notebook" describe compatibility); at the same start the LONGER
 * match wins ("notebook case" beats "notebook", "printer drum" beats "printer"); then the earlier row. Finally an
 * accessory type (CHORUS_ACCESSORY_TYPES) closing the same noun phrase takes over: "VGA Monitor Extension Cable" is a cable.
 * Titles with no known type word get no category.
 */
export const CHORUS_TYPES: ReadonlyArray<readonly [id: string, label: string, alternatives: string]> = [
  ['notebooks', 'Laptops & Notebooks', 'notebook|laptop|netbook|chromebook|ultrabook|hybrid \\(2-in-1\\)'],
  ['tablets', 'Tablets', 'tablet|ipad'],
  ['smartphones', 'Smartphones & Mobile Phones', 'smartphone|mobile phone|cell phone|iphone|dual sim|single sim'],
  ['monitors', 'Monitors', 'monitor|computer monitor|lcd monitor'],
  ['tvs', 'TVs', 'tv|television|smart tv|led tv'],
  [
    'printers',
    'Printers',
    '(?:inkjet|laser|photo|label|large format|dot matrix|receipt|3d|ink tank) printer|printer|multifunctional|all-in-one printer|\\d+ x \\d+ dpi',
  ],
  ['scanners', 'Scanners', 'scanner|document scanner|barcode scanner'],
  [
    'printer-supplies',
    'Toner & Ink',
    'toner(?: cartridge)?|ink cartridge|ink|printer (?:drum|ribbon|kit|belt|label)|drum(?: unit)?|ribbon|print head|(?:print )?cartridge|fuser|imaging unit|maintenance kit|toner collector|original|singlepack',
  ],
  [
    'paper-labels',
    'Paper & Labels',
    'photo paper|printing paper|paper|large format media|label-making tape|self-adhesive label|printing film|printable textile',
  ],
  [
    'cables',
    'Cables',
    'cable|y-cable|cord|(?:networking|usb|audio|video|fibre optic|fiber optic|coaxial|vga|dvi|hdmi|sata|kvm|printer|power) cable|patch panel',
  ],
  [
    'adapters',
    'Adapters, Hubs & Converters',
    'hub|usb hub|interface hub|cable (?:interface|gender) (?:changer|adapter)|interface (?:cards|card)/adapter|adapter|converter|splitter|gender changer',
  ],
  ['mice', 'Mice', 'mouse|mice'],
  ['keyboards', 'Keyboards', 'keyboard|mobile device keyboard|keypad'],
  ['mouse-pads', 'Mousepads', 'mouse pad|mousepad|mouse mat'],
  ['wrist-rests', 'Wrist Rests', 'wrist rest|wrist pillow'],
  ['headphones', 'Headphones & Headsets', 'headset|headphone|earphone|earbud|in-ear|earpiece'],
  ['speakers', 'Speakers', 'speaker|loudspeaker|soundbar|speaker set'],
  ['microphones', 'Microphones', 'microphone'],
  ['smartwatches', 'Watches & Fitness Trackers', 'watch|smartwatch|smart watch|sport watch|activity tracker|fitness tracker'],
  ['cameras', 'Cameras', 'camera|digital camera|camcorder|action sports camera|security camera|webcam|dashcam'],
  ['camera-lenses', 'Camera Lenses', 'camera lens|lens'],
  ['memory-cards', 'Memory Cards & USB Flash Drives', 'memory card|usb flash drive|flash drive|sd card|microsd|usb stick'],
  ['card-readers', 'Card Readers', 'card reader'],
  [
    'drives',
    'Hard Drives & SSDs',
    'hard drive|hard disk drive|hard disk|internal hard drive|external hard drive|(?<!\\d\\s[gt]b\\s)(?<!\\+)(?:hdd|ssd)(?!\\+)|solid state drive',
  ],
  ['optical', 'Optical Drives', 'optical disc drive|optical drive|cd-rom drive|dvd-rom drive|dvd writer|blu-ray writer|combo drive'],
  ['media-players', 'DVD & Blu-ray Players', 'dvd player|blu-ray disc player|blu-ray player|cd player|dvd/blu-ray player'],
  ['blank-media', 'Blank CDs & DVDs', 'optical disc|blank cd|blank dvd|blu-ray disc|cd-r|cd-rw|dvd-r|dvd\\+r|dvd-rw|dvd\\+rw|bd-r|bd-re'],
  ['memory-modules', 'Memory Modules & RAM', 'memory module|ram'],
  ['processors', 'Processors & CPUs', 'processor|cpu'],
  ['motherboards', 'Motherboards', 'motherboard|desktop board|server/workstation (?:motherboard|board)'],
  ['graphics-cards', 'Graphics Cards', 'graphics card|video card'],
  ['network-cards', 'Network Cards', 'network card|networking card|network interface card|network adapter'],
  ['ups', 'UPS & Battery Backup', 'ups|uninterruptible power supply(?: \\(ups\\))?|ups battery'],
  ['power-distribution', 'Power Strips & Surge Protectors', 'power distribution unit|pdu|rack pdu|surge protector|power extension|ac outlet|power strip'],
  ['power-supplies', 'Power Supplies', 'power supply(?: unit)?|psu'],
  [
    'chargers',
    'Chargers & Power Adapters',
    'charger|battery charger|mobile device charger|power adapter|power adapter/inverter|ac adapter|power bank|(?:notebook|laptop) (?:power adapter|adapter|charger)',
  ],
  ['batteries', 'Batteries', 'battery|batteries|single-use battery|rechargeable battery|(?:notebook|laptop|camera|phone|mobile phone) battery'],
  [
    'networking',
    'Routers & Network Switches',
    'router|wireless router|switch|network switch|access point|modem|network media converter|network extender|wireless range extender|unmanaged|managed(?: l[23]\\+?)?',
  ],
  ['kvm-switches', 'KVM Switches', 'kvm switch|kvm console'],
  ['docking-stations', 'Docking Stations', 'docking station|dock|port replicator|notebook dock/port replicator'],
  [
    'bags-cases',
    'Cases & Bags',
    'case|bag|backpack|sleeve|briefcase|pouch|holster|folio|(?:notebook|laptop|tablet|camera|phone|mobile phone) (?:case|bag|sleeve|cover|roller)|cover',
  ],
  ['computer-cases', 'Computer Cases', 'computer case|pc case|chassis'],
  ['antennas', 'Antennas', 'antenna|network antenna|tv antenna|television antenna'],
  ['projectors', 'Projectors', 'projector|data projector'],
  ['projector-accessories', 'Projector Accessories', 'projector lamp|projection screen'],
  [
    'spare-parts',
    'Spare Parts',
    'spare part|notebook spare part|printer/scanner spare part|tray/feeder|duplex unit|(?:transfer|feed|feeding|pick|pickup|exchange|adf|printer) roller|roller(?: replacement| assembly)? kit',
  ],
  [
    'mounts',
    'Mounts & Stands',
    'mount|mounting kit|flat panel (?:desk|wall|floor|ceiling) mount|monitor arm|stand|bracket|holder|(?:speaker|loudspeaker|monitor|tv|notebook|laptop|tablet|phone|projector) (?:stand|mount|holder|bracket|arm)|drawer|keyboard tray|(?<!ink\\s)cart',
  ],
  ['rack-accessories', 'Racks & Rack Accessories', 'rack|rack accessory|rack accessories|freestanding rack|rack cabinet'],
  ['cooling', 'Cooling & Fans', 'computer cooling (?:component|system)|fan|cooler|heatsink'],
  ['security-locks', 'Security Locks', 'cable lock|security lock|lock|(?:notebook|laptop) lock'],
  ['screen-filters', 'Screen Filters & Protectors', 'privacy filter|privacy screen|display privacy filter|screen protector|anti-glare filter'],
  ['desktops', 'Desktop PCs & Workstations', 'pc(?!\\(s\\))|desktop|workstation|all-in-one pc|mini pc|thin client|barebone|nettop'],
  ['servers', 'Servers', 'server|server barebone|nas|storage server'],
  ['game-consoles', 'Game Consoles & Controllers', 'game console|gaming console|gamepad|game controller|joystick|nintendo switch'],
  ['calculators', 'Calculators', 'calculator'],
  ['coffee-makers', 'Coffee Makers', 'coffee maker|coffee machine|espresso machine'],
  ['toys', 'Toys', 'doll|doll accessory|jigsaw puzzle|puzzle|toy'],
];

/** Splits "a|b(?:c|d)" on top-level pipes only. */
function alternativesOf(source: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    if (ch === '\\') i++;
    else if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (ch === '|' && depth === 0) {
      out.push(source.slice(start, i));
      start = i + 1;
    }
  }
  return [...out, source.slice(start)];
}

/** Word edges: letters, digits and "-" glue words ("Wall-Mount" is not "mount", "Back-UPS" is not "ups"). */
const TYPE_PATTERNS = CHORUS_TYPES.flatMap(([id, label, alternatives], row) =>
  alternativesOf(alternatives).map((alt) => ({
    id,
    label,
    row,
    re: new RegExp(`(?<![\\p{L}\\p{N}-])(?:${alt})(?:e?s)?(?![\\p{L}\\p{N}]|-[\\p{L}\\p{N}])`, 'giu'),
  })),
);

/** Accessory and consumable types: the head noun of "<device> [1-2 words] <accessory>" ("Monitor Extension Cable" is a cable). */
export const CHORUS_ACCESSORY_TYPES: ReadonlySet<string> = new Set([
  'printer-supplies',
  'paper-labels',
  'cables',
  'adapters',
  'mouse-pads',
  'wrist-rests',
  'camera-lenses',
  'memory-cards',
  'card-readers',
  'chargers',
  'batteries',
  'power-distribution',
  'docking-stations',
  'bags-cases',
  'antennas',
  'projector-accessories',
  'spare-parts',
  'mounts',
  'cooling',
  'security-locks',
  'screen-filters',
]);

/** Types whose word, later in a noun phrase, is a modifier and not its head: "Notebook PC", "Combo Drive CD-RW". */
const NEVER_HEAD: ReadonlySet<string> = new Set(['desktops', 'blank-media']);

/** A type row by its id. */
const TYPE_BY_ID = new Map(CHORUS_TYPES.map(([id, label]) => [id, { id, label }]));

/** Text between two matches that keeps them in one noun phrase: at most two words, no punctuation or linking word. */
const SAME_PHRASE = /^\s+(?:[\p{L}\p{N}.]+\s+){0,2}$/u;
const PHRASE_BREAK = /(?:^|\s)(?:with|w\/|and|or|for|to|incl\.?|including|plus|&|\+)(?:\s|$)/i;

type TypeMatch = { id: string; label: string; row: number; at: number; len: number };
const before = (a: TypeMatch, b: TypeMatch) => a.at - b.at || b.len - a.len || a.row - b.row;

/**
 * The product type of a Chorus title per CHORUS_TYPES, or null. A leading brand is ignored. The match that starts
 * earliest wins (longest, then table order, on ties), then moves on to an accessory type that closes the same noun phrase.
 */
export function inferChorusType(title: string, brand?: string | null): { id: string; label: string } | null {
  if (brand && title.toLowerCase().startsWith(`${brand.toLowerCase()} `)) title = title.slice(brand.length + 1);
  const matches: TypeMatch[] = [];
  for (const { id, label, row, re } of TYPE_PATTERNS) for (const m of title.matchAll(re)) matches.push({ id, label, row, at: m.index, len: m[0].length });
  if (!matches.length) return null;
  matches.sort(before);
  let best = matches[0];
  for (const [i, m] of matches.entries()) {
    // Of the matches starting at one place only the longest counts ("optical disc drive", not "optical disc").
    if (i > 0 && matches[i - 1].at === m.at) continue;
    // A later type word in the same noun phrase is the head noun ("Laptop Backpack", "Laptop RAM module"),
    // except NEVER_HEAD types.
    if (m.at < best.at + best.len || NEVER_HEAD.has(m.id) || m.id === best.id) continue;
    const gap = title.slice(best.at + best.len, m.at);
    if (!SAME_PHRASE.test(gap) || PHRASE_BREAK.test(gap)) continue;
    best = m;
  }
  return { id: best.id, label: best.label };
}

/** Icecat's own type attributes, read when the title names no type ("Samsung Galaxy Tab S6 ... Android 10" is a "Full-size tablet"). */
const TYPE_ATTRIBUTES = ['attr_t_device_type', 'attr_t_product_type', 'attr_t_type'];
/** Phone form factors (tablets and laptops have others: "Slate", "Clamshell"). */
const PHONE_FORMS = new Set(['Bar', 'Flip', 'Slider']);

/** The product type from the record's type attributes, or null. */
export function typeFromAttributes(raw: ChorusRaw): { id: string; label: string } | null {
  for (const key of TYPE_ATTRIBUTES) {
    const value = raw[key];
    const type = typeof value === 'string' ? inferChorusType(value) : null;
    if (type) return type;
  }
  if (typeof raw.attr_t_form_factor === 'string' && PHONE_FORMS.has(raw.attr_t_form_factor)) return TYPE_BY_ID.get('smartphones')!;
  return null;
}

/** A screen size and resolution with no processor or memory beside them: Icecat's monitor titles ("DELL P2419HC 61 cm (24") 1920 x 1080 pixels Full HD LCD Black"). */
const SCREEN_SPEC = /\d+(?:\.\d+)? cm \([\d.]+"\) \d+ x \d+ pixels/;
const COMPUTER_SPEC = /\b(?:intel|amd|ryzen|core|\d+ gb|ddr\d?|handheld|mobile computer|\d+ g\b)/i;

/** The product type from the title's specs when it names none, or null. */
export function typeFromSpecs(title: string): { id: string; label: string } | null {
  return SCREEN_SPEC.test(title) && !COMPUTER_SPEC.test(title) ? TYPE_BY_ID.get('monitors')! : null;
}

/** US cents (integer) as a decimal string: 4995 -> "49.95". */
export function centsToDecimal(cents: number): string {
  const c = Math.round(cents);
  return `${Math.floor(c / 100)}.${String(c % 100).padStart(2, '0')}`;
}

/** The `attr_t_<name>` (text) and `attr_n_<name>` (number) fields keyed by `<name>`, empty ones skipped, at most `max` (MAX_CHORUS_ATTRIBUTES). */
export function chorusAttributes(raw: ChorusRaw, max: number = MAX_CHORUS_ATTRIBUTES): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {};
  let n = 0;
  for (const [key, value] of Object.entries(raw)) {
    if (n >= max) break;
    const m = /^attr_([tn])_(.+)$/.exec(key);
    if (!m || m[2].length > LIMITS.attributeKey) continue;
    if (m[1] === 't') {
      const v = text(value, LIMITS.attributeText);
      if (v === null) continue;
      out[m[2]] = v;
    } else {
      const v = typeof value === 'string' && value.trim() ? Number(value) : value;
      if (typeof v !== 'number' || !Number.isFinite(v)) continue;
      out[m[2]] = v;
    }
    n++;
  }
  return out;
}

/** Maps one Chorus/Icecat record to ProductIn (price from US cents, USD, type category inferred from the title); throws on a record without id or price. */
export function mapChorus(raw: ChorusRaw): ProductIn {
  const id = text(raw.id === undefined || raw.id === null ? null : String(raw.id), Infinity);
  if (!id || id.length > LIMITS.id) throw new Error(`chorus record without a usable id: ${JSON.stringify(raw.id)}`);
  const cents = typeof raw.price === 'string' && raw.price.trim() ? Number(raw.price) : raw.price;
  if (typeof cents !== 'number' || !Number.isFinite(cents) || cents < 0) throw new Error(`chorus record ${id} has no valid price`);
  const name = text(raw.title, LIMITS.text) ?? text(raw.name, LIMITS.text) ?? id;
  const description = text(raw.short_description, LIMITS.text);
  const gtin = Array.isArray(raw.ean) ? (raw.ean.map((e) => text(e, Infinity)).find((e) => e && e.length <= LIMITS.gtin) ?? null) : null;
  const brand = text(raw.supplier, LIMITS.brand);
  const type = inferChorusType(name, brand) ?? typeFromAttributes(raw) ?? typeFromSpecs(name);
  const categories: CategoryRef[] = type ? [{ id: type.id, path: [{ en: 'Electronics' }, { en: type.label }] }] : [];
  const released = typeof raw.date_released === 'string' ? new Date(raw.date_released) : null;
  return {
    id,
    name: { en: name },
    ...(description ? { description: { en: description } } : {}),
    brand,
    model: text(raw.name, LIMITS.model),
    gtin,
    image_url: urlOrNull(raw.img_500x500) ?? urlOrNull(raw.img_high),
    price: centsToDecimal(cents),
    currency: 'USD',
    categories,
    attributes: chorusAttributes(raw),
    updated_at: released && !Number.isNaN(released.getTime()) ? released.toISOString() : null,
  };
}
