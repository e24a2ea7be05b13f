import t from 'tap';
import { headForms, namingPart, productHead, productHeads } from '../../shared/text/product-head.js';

// Made-up titles in each style a store writes: no collection's products.
t.test('marketplace English: the last word of the part naming the product', async (t) => {
  t.equal(productHead('Acme 48 oz. Kettle Lid'), 'lid', 'an accessory of a kettle is a lid');
  t.equal(productHead('Acme 12-Cup Kettle - Brushed Steel'), 'kettle', 'what follows " - " qualifies it');
  t.equal(productHead('Travel Case for Acme Kettle'), 'case', 'a "for X" names what it fits');
  t.equal(productHead('Canvas Tote with Zip Pocket, 2 Pack'), 'tote');
  t.equal(productHead('Ceramic Mug 350 ml Blue'), 'mug', 'trailing measures and colours are skipped');
  t.equal(productHead("Trail Runner Shoes Women's"), 'shoes', 'an audience word is no type');
  t.equal(productHead('Glass Beads 1 Pound-Green'), 'beads', 'a capitalised hyphenated last word qualifies the one before');
  t.equal(productHead('Cotton T-Shirt'), 't-shirt');
  t.equal(productHead("Casual Sleeveless Printed Women's Top"), 'top', 'a quality word last in the naming part names the product');
  t.equal(productHead('Top Rated Travel Kettle'), 'kettle', 'elsewhere it is no head');
  t.equal(productHead('Acme Travel Kettle New'), 'kettle', 'a recency word last is still none');
});

t.test("a maker's label before a dash: the product is named after it", async (t) => {
  t.equal(productHead('Zentrix - Shoe Tape Dispenser, Aqua'), 'dispenser', 'one word, then a dash: a label');
  t.equal(productHead('Zentrix ZX-200 - travel kettle - 1.7 L'), 'kettle', 'its other words codes: still a label');
  t.equal(productHead('Zentrix Kettle - Brushed Steel'), 'kettle', 'two words that can be heads: the product itself');
  t.equal(productHead('Kettle - Black'), 'kettle', 'nothing after it can be a head: the label is');
  t.equal(productHead('Zentrix Travel Kettle'), 'kettle', 'no dash, no label');
  t.equal(productHead('Zentrix & Sons Travel Kettle'), 'kettle', 'a maker "X & Y"');
  t.equal(productHead('Zentrix by Acme Travel Kettle'), 'kettle', 'a line "X by Y"');
  t.equal(productHead('Zentrix (Refurbished) Travel Kettle, Red'), 'kettle', 'a parenthesis after the label');
  t.equal(productHead('Case for Zentrix Kettle'), 'case', 'never before "for": a case for a kettle');
  t.equal(productHead('Zentrix 4 in 1 Kettle Set Adapter'), 'adapter', '"4 in 1" is no qualifier');
});

t.test('spec-sheet titles: the type written in lower case after the capitalised brand and series', async (t) => {
  t.equal(productHead('Zentrix ProLink 4 Port KVM Console switch box Black'), 'box');
  t.equal(productHead('Zentrix QX-200 Travel Kettle kettle lid 1.7 L'), 'lid', 'the last lower-case word names it');
  t.equal(productHead('Zentrix ZX9 Notebook 35.6 cm (14") 8 GB'), 'notebook', 'without a lower-case type, the last word before the specs');
});

t.test('Arabic puts the head noun first', async (t) => {
  t.equal(productHead('غلاية كهربائية ستانلس ستيل'), 'غلايه');
  t.equal(productHead('غطاء لغلاية كهربائية'), 'غطاء', 'a lid of a kettle is a lid');
});

t.test('a colon: each side gives its head (a label before it, or qualifiers after it)', async (t) => {
  t.same(productHeads('Northwind: Linen Summer Dress, Dresses for Women'), ['northwind', 'dress']);
  t.same(productHeads('Kids Scooter: Acme Glide Scooter - Red'), ['scooter']);
  t.equal(productHead('Solid-Wood Wall-Mount Spice Rack'), 'rack', 'capitalised hyphenated words keep their first part');
});

t.test('titles without a word have no head; forms match plural and compound', async (t) => {
  t.equal(productHead('ZX-9000 12345'), null);
  t.equal(namingPart('Acme Kettle, Red'), 'Acme Kettle');
  t.same(headForms('t-shirts').sort(), ['shirt', 'shirts', 't-shirts'].sort(), 'a hyphenated word is not stemmed whole');
  t.ok(headForms('kettles').includes('kettle'));
});

t.test('"and" joining the last two nouns: both are the product', async (t) => {
  t.same(productHeads('Igloo 3.2 cu. ft. Refrigerator and Freezer').sort(), ['freezer', 'refrigerator']);
  t.same(productHeads('Salt and Pepper Shakers'), ['shakers'], 'the head is not the word after "and"');
  t.same(productHeads('Dress Black and White'), ['dress'], 'colours are no heads');
  t.same(productHeads('Rock and Roll T-Shirt'), ['t-shirt']);
});
