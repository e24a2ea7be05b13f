import t from 'tap';
import { embeddedIpv4, isPrivateAddress, urlRefusal } from '../../shared/notifications/address-check.js';

t.test('an IPv6 address carrying a private IPv4 one is private, in every form that reaches it', async (t) => {
  for (const address of [
    '::ffff:127.0.0.1',
    '::ffff:7f00:1', // the same, in hex
    '::127.0.0.1', // IPv4-compatible
    '64:ff9b::a9fe:a9fe', // NAT64 of 169.254.169.254
    '64:ff9b::10.0.0.1',
    '2002:a9fe:a9fe::1', // 6to4 of 169.254.169.254
    '2002:c0a8:101::', // 6to4 of 192.168.1.1
    '64:ff9b:1::1', // local-use NAT64
    '2001:0:4136:e378:8000:63bf:3fff:fdd2', // Teredo
    '::1',
    '::',
    'fe80::1',
    'fd12:3456::1',
    'ff02::1',
  ])
    t.ok(isPrivateAddress(address), address);
  for (const address of ['64:ff9b::808:808', '2002:808:808::1', '2606:4700:4700::1111', '8.8.8.8', '::ffff:8.8.8.8'])
    t.notOk(isPrivateAddress(address), address);
  t.equal(embeddedIpv4('64:ff9b::a9fe:a9fe'), '169.254.169.254');
  t.equal(embeddedIpv4('2606:4700:4700::1111'), null);
});

t.test('a receiver URL naming such an address is refused', async (t) => {
  for (const url of ['http://[64:ff9b::a9fe:a9fe]/', 'http://[::127.0.0.1]/', 'http://[::ffff:7f00:1]/', 'http://[2002:a9fe:a9fe::1]/'])
    t.match(await urlRefusal(url, false), /private, loopback or link-local/, url);
  t.equal(await urlRefusal('http://[64:ff9b::a9fe:a9fe]/', true), null, 'unless private addresses are allowed');
});
