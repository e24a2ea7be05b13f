import t from 'tap';
import { ProductIn as ProductInSchema } from '../../api/routes/catalog/products.schema.js';
import { mapChorusRaw } from '../../scripts/catalog/chorus-raw.mapper.js';
import { mapChorus } from '../../scripts/catalog/chorus.mapper.js';
import { mapCrowdflower } from '../../scripts/catalog/crowdflower.mapper.js';

const icecat = {
  id: '3920564',
  name: '006R90321',
  title: 'Xerox 006R90321 toner cartridge Original Black 6 pc(s)',
  ean: ['0095205603217', '0095205603224'],
  short_description: 'Toner (6 Per Box) for CopyCentre C65 Digital Copier',
  supplier: 'Xerox',
  price: 4995,
  date_released: '2009-12-10T00:00:00Z',
  img_500x500: 'http://images.icecat.biz/img/x.jpg',
  attr_t_type: 'Original',
  attr_t_printing_colours: 'Black',
  attr_b_duplex: true,
  attr_n_quantity_per_pack: 6.0,
  attr_n_black_toner_page_yield: '23000',
  attr_t_empty: '  ',
};

t.test('chorus raw: the fields the data has, as it has them, no categories', async (t) => {
  const p = mapChorusRaw(icecat);
  t.same(p, {
    id: '3920564',
    name: { en: 'Xerox 006R90321 toner cartridge Original Black 6 pc(s)' },
    description: { en: 'Toner (6 Per Box) for CopyCentre C65 Digital Copier' },
    brand: 'Xerox',
    model: '006R90321',
    gtin: '0095205603217',
    price: '49.95',
    currency: 'USD',
    attributes: { type: 'Original', printing_colours: 'Black', quantity_per_pack: 6, black_toner_page_yield: 23000 },
  });
  t.ok(ProductInSchema.safeParse(p).success, 'the API accepts it');
  t.ok((mapChorus(icecat).categories ?? []).length > 0, 'the categories mapper infers a type for the same record (the second figure)');
});

t.test('chorus raw: every attribute, not the first 40; over-long text cut to the API limit', async (t) => {
  const raw: Record<string, unknown> = { id: 'a', title: 'Thing', price: 100, attr_t_long: 'x'.repeat(1500) };
  for (let i = 0; i < 60; i++) raw[`attr_n_spec_${i}`] = i;
  const p = mapChorusRaw(raw);
  t.equal(Object.keys(p.attributes ?? {}).length, 61);
  t.equal((p.attributes?.long as string).length, 1000);
  t.ok(ProductInSchema.safeParse(p).success);
});

t.test('chorus raw: missing parts', async (t) => {
  const p = mapChorusRaw({ id: 7, name: 'M-1', price: '250', ean: [] });
  t.same(p.name, { en: 'M-1' }, 'no title: the model name');
  t.notOk('description' in p, 'no description key without a short_description');
  t.equal(p.brand, null);
  t.equal(p.gtin, null);
  t.equal(p.price, '2.50');
  t.equal(
    mapChorusRaw({ id: 'g', title: 'T', price: 1, ean: ['1'.repeat(60), '123'] }).gtin,
    null,
    'a first ean over the limit is not replaced by a later one',
  );
  t.throws(() => mapChorusRaw({ title: 'no id', price: 1 }), /usable id/);
  t.throws(() => mapChorusRaw({ id: 'x', title: 'no price' }), /no valid price/);
});

t.test('crowdflower: title as name, description raw with its HTML, nothing invented', async (t) => {
  const html = '<ul><li>Stainless steel&nbsp;blades</li><li>64 oz. jar</li></ul>';
  const p = mapCrowdflower({ id: 'cf0001', title: 'Blendtec 64 oz. Blender Jar', description: html });
  t.same(p, { id: 'cf0001', name: { en: 'Blendtec 64 oz. Blender Jar' }, description: { en: html }, price: '0.00', currency: 'USD' });
  t.ok(ProductInSchema.safeParse(p).success, 'the API accepts it');
  const bare = mapCrowdflower({ id: 'cf0002', title: 'ViewSonic Pro8200 DLP Multimedia Projector', description: null });
  t.notOk(bare && 'description' in bare, 'a null description is left out');
  t.equal(mapCrowdflower({ id: 'cf0003', title: '  ', description: 'x' }), null, 'no title: skipped');
  t.equal(mapCrowdflower({ title: 'no id' }), null);
});
