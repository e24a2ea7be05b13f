/** A small bilingual catalog for search tests. */
const p = (id: string, en: string, extra: Record<string, unknown> = {}) => ({ id, name: { en }, price: 100, currency: 'SAR', ...extra });
const cat = (id: string, ...levels: string[]) => [{ id, path: levels.map((l) => ({ en: l, ar: `ع-${l}` })) }];

export const PRODUCTS = [
  p('lap1', 'Lenovo ThinkPad X1 Carbon laptop', {
    brand: 'Lenovo',
    price: 5200,
    categories: cat('laptops', 'Electronics', 'Laptops'),
    attributes: { Colour: 'Black' },
    popularity: 10,
    description: { en: 'A light business laptop with a 14 inch screen' },
  }),
  p('lap2', 'HP Pavilion 15 laptop', {
    brand: 'HP',
    price: 2500,
    categories: cat('laptops', 'Electronics', 'Laptops'),
    attributes: { Colour: 'Silver' },
    popularity: 50,
  }),
  p('lap3', 'Apple MacBook Air 13 notebook', {
    brand: 'Apple',
    price: 4300,
    in_stock: false,
    categories: cat('laptops', 'Electronics', 'Laptops'),
    attributes: { Colour: 'Silver' },
    popularity: 90,
  }),
  p('ph1', 'Samsung Galaxy S21 smartphone', {
    brand: 'Samsung',
    price: 2999,
    categories: cat('phones', 'Electronics', 'Phones'),
    attributes: { Colour: 'Black' },
  }),
  p('ph2', 'Apple iPhone 13 smartphone red', {
    brand: 'Apple',
    price: 3500,
    categories: cat('phones', 'Electronics', 'Phones'),
    attributes: { Colour: 'Red' },
  }),
  p('w1', 'Garmin Forerunner smartwatch', {
    brand: 'Garmin',
    price: 1200,
    categories: cat('watches', 'Electronics', 'Watches'),
    attributes: { Colour: 'Black' },
  }),
  p('h1', 'Sony wireless headset', { brand: 'Sony', price: 450, categories: cat('audio', 'Electronics', 'Audio'), attributes: { Colour: 'Black' } }),
  p('h2', 'JBL bluetooth speaker', { brand: 'JBL', price: 300, categories: cat('audio', 'Electronics', 'Audio'), attributes: { Colour: 'Blue' } }),
  p('t1', 'Android tablet 10 inch', { brand: 'Lenovo', price: 900, categories: cat('tablets', 'Electronics', 'Tablets'), attributes: { Colour: 'Black' } }),
  p('ar1', 'Red cotton dress', {
    name: { en: 'Red cotton dress', ar: 'فستان قطن أحمر' },
    brand: 'Zara',
    price: 199,
    categories: cat('dresses', 'Clothing', 'Dresses'),
    attributes: { Colour: 'Red' },
  }),
  p('ar2', 'Blue cotton shirt', {
    name: { en: 'Blue cotton shirt', ar: 'قميص قطن أزرق' },
    brand: 'Zara',
    price: 149,
    sale_price: 99,
    categories: cat('shirts', 'Clothing', 'Shirts'),
    attributes: { Colour: 'Blue' },
  }),
  p('ar3', 'Screen protector glass', {
    name: { en: 'Screen protector glass', ar: 'شاشة حماية زجاجية' },
    brand: 'Generic',
    price: 25,
    sku: 'SP-1000',
    categories: cat('accessories', 'Electronics', 'Accessories'),
  }),
];

export const MAPPING = [{ raw_name: 'Colour', canonical_name: 'color', facet: true }];
