const EN = {
  placeholder: 'Search products',
  suggestions: 'Suggestions',
  products: 'Products',
  categories: 'Category',
  brand: 'Brand',
  price: 'Price',
  inStock: 'In stock only',
  relevance: 'Most relevant',
  priceAsc: 'Price: low to high',
  priceDesc: 'Price: high to low',
  newest: 'Newest',
  popular: 'Most popular',
  results: (n: number) => `${n.toLocaleString('en')} results`,
  didYouMean: 'Did you mean',
  noResults: 'No products match your search.',
  relaxed: 'No product has every word; showing products that match some of them.',
  tryCategories: 'Popular categories:',
  outOfStock: 'Out of stock',
  go: 'Go',
  min: 'Min',
  max: 'Max',
  brandKind: 'Brand',
  categoryKind: 'Category',
  showMore: 'Show more',
  showLess: 'Show less',
};
const AR: typeof EN = {
  placeholder: 'ابحث عن المنتجات',
  suggestions: 'اقتراحات',
  products: 'المنتجات',
  categories: 'الفئة',
  brand: 'العلامة التجارية',
  price: 'السعر',
  inStock: 'المتوفر فقط',
  relevance: 'الأكثر صلة',
  priceAsc: 'السعر: من الأقل إلى الأعلى',
  priceDesc: 'السعر: من الأعلى إلى الأقل',
  newest: 'الأحدث',
  popular: 'الأكثر شيوعاً',
  results: (n: number) => `${n.toLocaleString('ar')} نتيجة`,
  didYouMean: 'هل تقصد',
  noResults: 'لا توجد منتجات مطابقة لبحثك.',
  relaxed: 'لا يوجد منتج يحتوي على كل الكلمات؛ نعرض منتجات تطابق بعضها.',
  tryCategories: 'فئات شائعة:',
  outOfStock: 'غير متوفر',
  go: 'تطبيق',
  min: 'الأدنى',
  max: 'الأعلى',
  brandKind: 'علامة تجارية',
  categoryKind: 'فئة',
  showMore: 'عرض المزيد',
  showLess: 'عرض أقل',
};
export type Strings = typeof EN;

/** The widget's texts in the page's language (English for languages it has no texts for). */
export function strings(lang: string): Strings {
  return lang === 'ar' ? AR : EN;
}

/** A price as the shopper's locale writes it. */
export function money(value: number, currency: string, lang: string): string {
  try {
    return new Intl.NumberFormat(lang === 'ar' ? 'ar' : 'en', { style: 'currency', currency }).format(value);
  } catch {
    return `${value} ${currency}`;
  }
}
