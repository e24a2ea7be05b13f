import t from 'tap';
import { misspell, typo } from '../../scripts/eval/typos.js';

t.test('one typing error in the longest word of 5+ letters, the same every run', async (t) => {
  const queries = ['blender', 'longboard pads', 'teenage mutant ninja turtles', 'iphone 5', 'sunglasses polarized', 'cast iron skillet'];
  for (const q of queries) {
    const m = misspell(q);
    t.not(m, q, `${q} -> ${m}`);
    t.equal(misspell(q), m, 'deterministic');
    const changed = q.split(' ').filter((w, i) => w !== m.split(' ')[i]);
    t.equal(changed.length, 1, 'one word changed');
    const longest = Math.max(
      ...q
        .split(' ')
        .filter((w) => /^[a-z]{5,}$/.test(w))
        .map((w) => w.length),
    );
    t.equal(changed[0].length, longest, 'the longest word');
  }
  t.equal(misspell('ipad 2'), 'ipad 2', 'no word of 5 letters: as typed');
  t.equal(misspell('wii'), 'wii');
});

t.test('each kind of error keeps the first letter and changes the word by one edit', async (t) => {
  const seen = new Set<string>();
  for (let h = 0; h < 4096; h += 37) {
    const w = typo('blender', h);
    t.equal(w[0], 'b', `${w}: the first letter kept`);
    t.ok(Math.abs(w.length - 7) <= 1 && w !== 'blender', w);
    seen.add(w.length < 7 ? 'left out' : w.length > 7 ? 'doubled' : [...w].sort().join('') === [...'blender'].sort().join('') ? 'swapped' : 'neighbour key');
  }
  t.same([...seen].sort(), ['doubled', 'left out', 'neighbour key', 'swapped'], 'all four kinds occur');
});
