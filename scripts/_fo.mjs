import fs from 'node:fs';
const { openDocument } = await import('/work/main/packages/formats/pdf/dist/index.js');
const doc = await openDocument(new Uint8Array(fs.readFileSync(process.argv[2])));
console.log('fieldObjects', JSON.stringify(await doc.getFieldObjects())?.slice(0, 300));
