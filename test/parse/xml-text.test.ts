import { test } from 'node:test';
import assert from 'node:assert/strict';
import { xmlText } from '../../src/parse/xml-text.js';
import { DETECTORS } from '../../src/services/service-detection.js';

const latin1 = (s: string) => Uint8Array.from([...s].map((c) => c.charCodeAt(0)));

test('an XML body is decoded by its BOM, then the HTTP charset (RFC 7303), then its declaration, then as UTF-8', () => {
  const undeclared = latin1('<?xml version="1.0"?><t>région</t>');
  assert.equal(xmlText(undeclared, 'text/xml; charset=iso-8859-1'), '<?xml version="1.0"?><t>région</t>');
  assert.equal(xmlText(undeclared, 'text/xml'), '<?xml version="1.0"?><t>r\uFFFDgion</t>', 'nothing says Latin-1: read as UTF-8');
  const declared = latin1('<?xml version="1.0" encoding="ISO-8859-1"?><t>région</t>');
  assert.match(xmlText(declared), /<t>région<\/t>/);
  // The header wins over the declaration; a label no decoder knows is passed over.
  const utf8 = new TextEncoder().encode('<?xml version="1.0" encoding="ISO-8859-1"?><t>région</t>');
  assert.match(xmlText(utf8, 'application/xml; charset="UTF-8"'), /<t>région<\/t>/);
  assert.match(xmlText(declared, 'text/xml; charset=no-such-charset'), /<t>région<\/t>/);
  // UTF-16 declared on bytes that read as ASCII (no BOM): the declaration is wrong, not the bytes.
  assert.equal(xmlText(new TextEncoder().encode('<?xml version="1.0" encoding="UTF-16"?><urlset/>')), '<?xml version="1.0" encoding="UTF-16"?><urlset/>');
  // A BOM is before everything.
  const utf16 = new Uint8Array([0xff, 0xfe, ...[...'<t>é</t>'].flatMap((c) => [c.charCodeAt(0), 0])]);
  assert.equal(xmlText(utf16, 'text/xml; charset=iso-8859-1'), '<t>é</t>');
  const bom8 = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('<t>é</t>')]);
  assert.equal(xmlText(bom8, 'text/xml; charset=iso-8859-1'), '<t>é</t>', "a UTF-8 BOM wins over the header's Latin-1");
});

test('a WMS capabilities document in Latin-1, said only by the HTTP charset, keeps its accented title', () => {
  const body = latin1('<?xml version="1.0"?><WMS_Capabilities version="1.3.0"><Service><Name>WMS</Name><Title>Carte de la région</Title></Service><Capability><Layer><Name>a</Name><Title>a</Title></Layer></Capability></WMS_Capabilities>');
  const { findings } = DETECTORS.WMS.inspect({ url: 'http://x.org/wms', status: 200, contentType: 'text/xml; charset=iso-8859-1', body });
  assert.equal(findings.status, 'valid');
  assert.equal(findings.title, 'Carte de la région');
});
