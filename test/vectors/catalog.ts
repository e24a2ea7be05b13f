/** A catalog of product families (English and Arabic) for vector and recommendation tests. */
const cat = (id: string, ...levels: string[]) => [{ id, path: levels.map((l) => ({ en: l })) }];

const FAMILIES: Array<{ cat: string; top: string; brands: string[]; words: string[] }> = [
  {
    cat: 'phones',
    top: 'Electronics',
    brands: ['Samsung', 'Apple', 'Xiaomi'],
    words: ['smartphone', 'mobile phone', 'android phone 5g', 'dual sim smartphone'],
  },
  {
    cat: 'laptops',
    top: 'Electronics',
    brands: ['Lenovo', 'HP', 'Dell'],
    words: ['laptop notebook', 'gaming laptop', 'ultrabook laptop 14 inch', 'business notebook'],
  },
  { cat: 'cables', top: 'Electronics', brands: ['Belkin', 'Anker'], words: ['usb cable', 'hdmi cable 2m', 'usb-c charging cable', 'lightning cable'] },
  { cat: 'coffee', top: 'Kitchen', brands: ['Philips', 'DeLonghi'], words: ['coffee maker', 'espresso machine', 'coffee grinder', 'drip coffee machine'] },
];

export function familyProducts(prefix = '') {
  const out: Array<Record<string, unknown>> = [];
  for (const f of FAMILIES) {
    f.words.forEach((w, i) => {
      for (const [j, brand] of f.brands.entries()) {
        out.push({
          id: `${prefix}${f.cat}-${i}-${j}`,
          name: { en: `${brand} ${w} model ${i}${j}` },
          brand,
          price: 100 + i * 10 + j,
          currency: 'USD',
          categories: cat(f.cat, f.top, f.cat),
          popularity: (i + j) % 5,
        });
      }
    });
  }
  // Arabic products: the same embedder, no language rules.
  for (let i = 0; i < 6; i++) {
    out.push({
      id: `${prefix}dress-${i}`,
      name: { ar: `فستان قطن ${['أحمر', 'أزرق', 'أسود'][i % 3]} طويل`, en: `cotton dress ${i}` },
      brand: 'Zara',
      price: 50 + i,
      currency: 'USD',
      categories: cat('dresses', 'Clothing', 'dresses'),
    });
    out.push({
      id: `${prefix}shirt-${i}`,
      name: { ar: `قميص رجالي ${['أبيض', 'أزرق', 'رمادي'][i % 3]} قطن`, en: `men shirt ${i}` },
      brand: 'Mango',
      price: 40 + i,
      currency: 'USD',
      categories: cat('shirts', 'Clothing', 'shirts'),
    });
  }
  return out;
}
