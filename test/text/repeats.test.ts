import t from 'tap';
import { capRepeats } from '../../shared/text/repeats.js';

t.test('each word kept at its first occurrences, the rest of the text untouched', async (t) => {
  t.equal(capRepeats('a b a c a d a', 2), 'a b a c  d ');
  t.equal(capRepeats('google maps,google play,google now', 1), 'google maps, play, now');
  const same = 'no word repeats here';
  t.equal(capRepeats(same, 1), same, 'nothing to cap: the same string');
  t.equal(capRepeats('', 3), '');
  t.equal(capRepeats('عود عود عود عود', 3), 'عود عود عود ', 'any script');
});
